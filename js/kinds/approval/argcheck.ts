// The check of edited tool-call arguments against the tool's JSON Schema (an approval's
// `details_schema`), before Approve sends them. The kernel checks again with the same rules
// and words (src/nbask/kinds/_argcheck.py).
//
// Only the subset a function's signature gives (pydantic's schema of its parameters) is read:
// `type` (one or a list), `enum`, `const`, `anyOf` / `oneOf` / `allOf`, `$ref` into `$defs`,
// `properties`, `required`, `additionalProperties` (false or a schema) and `items`. Other
// keywords are not checked here.

/** How many problems one check reports at most. */
export const MAX_PROBLEMS = 5;
/** How many `$ref` hops are followed before giving up (a schema may refer to itself). */
const MAX_REF_HOPS = 32;

type Schema = Record<string, unknown>;
type JsonType = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

const TYPE_WORDS: Readonly<Record<JsonType, string>> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  null: "null",
};

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON type of a parsed value; a number with no fraction is an integer. */
export function jsonType(value: unknown): JsonType {
  if (value === null) return "null";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string") return "string";
  if (Array.isArray(value)) return "array";
  return "object";
}

function fitsType(value: unknown, wanted: string): boolean {
  const actual = jsonType(value);
  return actual === wanted || (wanted === "number" && actual === "integer");
}

function show(value: unknown): string {
  return JSON.stringify(value);
}

function where(path: string): string {
  return path === "" ? "the arguments" : `argument ${show(path)}`;
}

function join(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

function typeNames(schema: Schema): string[] | null {
  const types = schema.type;
  if (typeof types === "string") return [types];
  if (Array.isArray(types)) return types.filter((t): t is string => typeof t === "string");
  return null;
}

function resolve(schema: unknown, root: Schema): Schema {
  let current = schema;
  for (let hops = 0; isSchema(current) && typeof current.$ref === "string" && hops < MAX_REF_HOPS; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith("#/")) return {};
    let target: unknown = root;
    for (const part of ref.slice(2).split("/")) target = isSchema(target) ? target[part] : undefined;
    if (!isSchema(target)) return {};
    current = target;
  }
  return isSchema(current) ? current : {};
}

function same(value: unknown, item: unknown): boolean {
  if (jsonType(value) !== jsonType(item)) return false;
  if (typeof value !== "object" || value === null) return value === item;
  return JSON.stringify(value) === JSON.stringify(item);
}

/** What a schema allows, in words: "an integer", "one of "a", "b"", "a string or null". */
export function describe(schema: unknown, root: Schema): string {
  const s = resolve(schema, root);
  if ("const" in s) return show(s.const);
  if (Array.isArray(s.enum)) return `one of ${s.enum.map(show).join(", ")}`;
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches) && branches.length > 0) {
    return [...new Set(branches.map((b) => describe(b, root)))].join(" or ");
  }
  const words = (typeNames(s) ?? []).filter((t): t is JsonType => t in TYPE_WORDS).map((t) => TYPE_WORDS[t]);
  return words.join(" or ") || "a value of another form";
}

function typeFits(value: unknown, schema: unknown, root: Schema): boolean {
  const s = resolve(schema, root);
  const names = typeNames(s);
  if (!("type" in s)) return !("$ref" in s) && !("enum" in s) && !("const" in s);
  return (names ?? []).some((t) => fitsType(value, t));
}

function branchProblems(value: unknown, schema: Schema, branches: unknown[], root: Schema, path: string): string[] {
  const tried = branches.map((b) => problemsOf(value, b, root, path));
  if (tried.some((found) => found.length === 0)) return [];
  const typed = tried.filter((_, i) => typeFits(value, branches[i], root));
  if (typed.length === 1) return typed[0] ?? [];
  const but = typed.length > 0 ? "" : `, not ${TYPE_WORDS[jsonType(value)]}`;
  return [`${where(path)} must be ${describe(schema, root)}${but}`];
}

function objectProblems(value: Record<string, unknown>, schema: Schema, root: Schema, path: string): string[] {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const found = required
    .filter((name): name is string => typeof name === "string" && !Object.hasOwn(value, name))
    .map((name) => `missing required argument ${show(join(path, name))}`);
  const extra = schema.additionalProperties ?? true;
  for (const [name, item] of Object.entries(value)) {
    if (Object.hasOwn(properties, name)) {
      found.push(...problemsOf(item, properties[name], root, join(path, name)));
    } else if (extra === false) {
      const known = Object.keys(properties).join(", ") || "none";
      found.push(`unknown argument ${show(join(path, name))} (the arguments are: ${known})`);
    } else if (isSchema(extra)) {
      found.push(...problemsOf(item, extra, root, join(path, name)));
    }
  }
  return found;
}

/** What is wrong with `value` against `schema`, each naming the argument and the rule. */
export function problemsOf(value: unknown, schema: unknown, root: Schema, path = ""): string[] {
  const s = resolve(schema, root);
  const names = typeNames(s);
  if (names !== null && !names.some((t) => fitsType(value, t))) {
    return [`${where(path)} must be ${describe(s, root)}, not ${TYPE_WORDS[jsonType(value)]}`];
  }
  if ("const" in s && !same(value, s.const)) return [`${where(path)} must be ${show(s.const)}`];
  if (Array.isArray(s.enum) && !s.enum.some((item) => same(value, item))) {
    return [`${where(path)} must be ${describe({ enum: s.enum }, root)}`];
  }
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches) && branches.length > 0) {
    const failed = branchProblems(value, s, branches, root, path);
    if (failed.length > 0) return failed;
  }
  const found: string[] = [];
  if (Array.isArray(s.allOf)) for (const part of s.allOf) found.push(...problemsOf(value, part, root, path));
  if (isSchema(value)) found.push(...objectProblems(value, s, root, path));
  else if (Array.isArray(value) && isSchema(s.items)) {
    const items = s.items;
    value.forEach((item, index) => found.push(...problemsOf(item, items, root, `${path}[${index}]`)));
  }
  return found;
}

/** Whether an approval's details are a JSON object or list (so an edit must stay JSON). */
export function looksLikeJson(details: string): boolean {
  try {
    const value: unknown = JSON.parse(details);
    return typeof value === "object" && value !== null;
  } catch {
    return false;
  }
}

/**
 * What is wrong with edited arguments `text`: not JSON, not an object, or (with a schema) a
 * missing, unknown or ill-typed argument. `[]`: the edit fits. Without a schema (arguments
 * nbask cannot describe), only that the text is JSON.
 */
export function editProblems(text: string, schema: unknown): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return [`the arguments are not valid JSON (${why})`];
  }
  if (!isSchema(schema)) return [];
  if (!isSchema(value)) {
    return [`the arguments must be a JSON object of argument names and values, not ${TYPE_WORDS[jsonType(value)]}`];
  }
  return problemsOf(value, schema, schema).slice(0, MAX_PROBLEMS);
}
