import { describe, expect, it } from "vitest";
import { detailsDiff } from "./linediff";
import { MAX_WORD_CELLS, retitle, withWords, wordDiff } from "./worddiff";

/** A line's parts as text, changed runs in [brackets]. */
const marked = (parts: readonly { text: string; changed: boolean }[] | undefined): string =>
  (parts ?? []).map((p) => (p.changed ? `[${p.text}]` : p.text)).join("");

describe("wordDiff", () => {
  it("marks the word that changed in a long command, nothing else", () => {
    const before = "kubectl apply -f deploy/app.yaml --context prod --namespace web --wait";
    const after = "kubectl apply -f deploy/app.yaml --context staging --namespace web --wait";
    const words = wordDiff(before, after);
    expect(marked(words?.before)).toBe("kubectl apply -f deploy/app.yaml --context [prod] --namespace web --wait");
    expect(marked(words?.after)).toBe("kubectl apply -f deploy/app.yaml --context [staging] --namespace web --wait");
  });

  it("joins neighbouring changed words with the space between them", () => {
    expect(marked(wordDiff("region prod eu now", "region staging us now")?.after)).toBe("region [staging us] now");
  });

  it("marks added and removed words with nothing opposite", () => {
    const words = wordDiff("rm -rf build", "rm -rf build/tmp");
    expect(marked(words?.before)).toBe("rm -rf build");
    expect(marked(words?.after)).toBe("rm -rf build[/tmp]");
  });

  it("gives up when the lines share no word, or are too long to compare", () => {
    expect(wordDiff("alpha beta", "gamma delta")).toBeNull();
    const long = "w ".repeat(Math.ceil(Math.sqrt(MAX_WORD_CELLS)));
    expect(wordDiff(long, `${long}x`)).toBeNull();
  });

  it("reads words in any script", () => {
    expect(marked(wordDiff("déployer sur prod", "déployer sur préprod")?.after)).toBe("déployer sur [préprod]");
  });
});

describe("withWords", () => {
  it("pairs each removed line with the added line at its place, and says what changed", () => {
    const lines = withWords(detailsDiff('{"cmd": "deploy", "env": "prod"}', '{"cmd": "deploy", "env": "staging"}'));
    const removed = lines.find((l) => l.op === "-");
    const added = lines.find((l) => l.op === "+");
    expect(marked(removed?.parts)).toBe('  "env": "[prod]"');
    expect(marked(added?.parts)).toBe('  "env": "[staging]"');
    expect(added?.summary).toBe("prod → staging");
    expect(lines.filter((l) => l.op === " ").every((l) => l.parts === undefined)).toBe(true);
  });

  it("leaves unpaired lines whole", () => {
    const lines = withWords(detailsDiff("a\nb x", "a\nb y\nc"));
    expect(lines.map((l) => `${l.op}${marked(l.parts) || l.text}`)).toEqual([" a", "-b [x]", "+b [y]", "+c"]);
  });
});

describe("retitle", () => {
  it("puts the edited value in the title where the old one stands as a word", () => {
    const parts = retitle("Deploy web to prod", "kubectl apply -f app.yaml --context prod", "kubectl apply -f app.yaml --context staging");
    expect(marked(parts ?? undefined)).toBe("Deploy web to [staging]");
  });

  it("follows a value with dots and slashes word by word", () => {
    expect(marked(retitle("Deploy a.b", "x a.b", "x a.c") ?? undefined)).toBe("Deploy a.[c]");
  });

  it("reads values out of JSON details", () => {
    const parts = retitle("Drop table events_2023", '{"table": "events_2023"}', '{"table": "events_2022"}');
    expect(marked(parts ?? undefined)).toBe("Drop table [events_2022]");
  });

  it("leaves the title alone where no changed value stands in it as a word", () => {
    expect(retitle("Deploy to production", "--context prod", "--context staging")).toBeNull();
    expect(retitle("Run the build", "make build", "make build --dry-run")).toBeNull();
  });
});
