// The check of edited tool-call arguments: the cases the kernel's check
// (src/nbask/kinds/_argcheck.py) runs too, so both sides say the same thing, and what the
// checker does without a schema.
import { describe, expect, it } from "vitest";
import { describe as describeSchema, editProblems, jsonType, looksLikeJson, MAX_PROBLEMS } from "./argcheck";
import shared from "./argcheck.cases.json";

const SCHEMA = shared.schema as Record<string, unknown>;

describe("argcheck", () => {
  it.each(shared.cases)("$edit", ({ edit, problems }) => {
    const found = editProblems(edit, SCHEMA);
    expect(found).toHaveLength(problems.length);
    found.forEach((text, i) => expect(text.startsWith(problems[i] ?? "")).toBe(true));
  });

  it("names the schema's forms in words", () => {
    expect(describeSchema({ type: "integer" }, {})).toBe("an integer");
    expect(describeSchema({ anyOf: [{ type: "string" }, { type: "null" }] }, {})).toBe("a string or null");
    expect(describeSchema({ type: ["number", "boolean"] }, {})).toBe("a number or true or false");
    expect(describeSchema({ const: "x" }, {})).toBe('"x"');
    expect(describeSchema({ $ref: "#/$defs/Size" }, SCHEMA)).toBe("an object");
  });

  it("reads integral numbers as integers, as JSON Schema does", () => {
    expect(jsonType(3)).toBe("integer");
    expect(jsonType(3.5)).toBe("number");
    expect(jsonType(true)).toBe("boolean");
    expect(jsonType([])).toBe("array");
    expect(jsonType(null)).toBe("null");
  });

  it("without a schema checks only that the text is JSON", () => {
    expect(editProblems('["any", "json"]', null)).toEqual([]);
    expect(editProblems("{", null)[0]).toMatch(/^the arguments are not valid JSON \(/);
  });

  it("stops after a few problems", () => {
    const many = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`x${i}`, i]));
    expect(editProblems(JSON.stringify(many), SCHEMA)).toHaveLength(MAX_PROBLEMS);
  });

  it("survives a schema that refers to itself", () => {
    const loop = { $defs: { A: { $ref: "#/$defs/A" } }, $ref: "#/$defs/A" };
    expect(editProblems("{}", loop)).toEqual([]);
  });

  it("knows which details were JSON", () => {
    expect(looksLikeJson('{"a": 1}')).toBe(true);
    expect(looksLikeJson("[1]")).toBe(true);
    expect(looksLikeJson("rm -rf build/")).toBe(false);
    expect(looksLikeJson("42")).toBe(false);
  });
});
