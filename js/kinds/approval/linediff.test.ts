import { describe, expect, it } from "vitest";
import { MAX_DIFF_CELLS, detailsDiff, lineDiff } from "./linediff";

const show = (diff: { op: string; text: string }[]): string[] => diff.map((l) => `${l.op}${l.text}`);

describe("lineDiff", () => {
  it("is empty for the same text", () => {
    expect(lineDiff("a\nb", "a\nb")).toEqual([]);
  });

  it("keeps common lines and marks the changed one removed then added", () => {
    expect(show(lineDiff("DELETE FROM events\nWHERE day < 7\nLIMIT 10", "DELETE FROM events\nWHERE day < 30\nLIMIT 10"))).toEqual([
      " DELETE FROM events",
      "-WHERE day < 7",
      "+WHERE day < 30",
      " LIMIT 10",
    ]);
  });

  it("finds added and removed lines in the middle", () => {
    expect(show(lineDiff("a\nb\nc\nd", "a\nc\nx\nd"))).toEqual([" a", "-b", " c", "+x", " d"]);
  });

  it("handles empty sides and CRLF", () => {
    expect(show(lineDiff("", "new"))).toEqual(["+new"]);
    expect(show(lineDiff("old", ""))).toEqual(["-old"]);
    expect(lineDiff("a\r\nb", "a\nb")).toEqual([{ op: " ", text: "a" }, { op: " ", text: "b" }]);
  });

  it("stays fast on very long texts: the middle is removed then added", () => {
    const n = Math.ceil(Math.sqrt(MAX_DIFF_CELLS)) + 10;
    const a = Array.from({ length: n }, (_, i) => `a${i}`).join("\n");
    const b = Array.from({ length: n }, (_, i) => `b${i}`).join("\n");
    const diff = lineDiff(`top\n${a}\nend`, `top\n${b}\nend`);
    expect(diff[0]).toEqual({ op: " ", text: "top" });
    expect(diff.at(-1)).toEqual({ op: " ", text: "end" });
    expect(diff.filter((l) => l.op === "-")).toHaveLength(n);
    expect(diff.filter((l) => l.op === "+")).toHaveLength(n);
  });
});

describe("detailsDiff", () => {
  it("compares JSON pretty-printed, so the changed argument shows", () => {
    expect(show(detailsDiff('{"name": "web", "replicas": 2}', '{"name":"web","replicas":3}'))).toEqual([
      " {",
      '   "name": "web",',
      '-  "replicas": 2',
      '+  "replicas": 3',
      " }",
    ]);
  });

  it("falls back to the text when only spacing of the JSON changed or one side is not JSON", () => {
    expect(show(detailsDiff('{"a": 1}', '{"a":1}'))).toEqual(['-{"a": 1}', '+{"a":1}']);
    expect(show(detailsDiff('{"a": 1}', "not json"))).toEqual(['-{"a": 1}', "+not json"]);
  });
});
