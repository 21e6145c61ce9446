// Notebooks saved before the wire names started with "_" keep each widget's state under the old
// names (`kind`, `status`, `result`, `questions`...). A model with no `_kind` but a `kind` is
// read through this adapter: every `_name` it is asked for falls back to `name`, for values and
// for change events, so such a notebook still shows how each of its requests ended.
import type { AnyModel } from "@anywidget/types";
import type { Model } from "./contract";

/** Whether the model holds its state under the names of earlier versions. */
export function hasOldNames(model: Pick<AnyModel<Model>, "get">): boolean {
  const get = model.get.bind(model) as (key: string) => unknown;
  return get("_kind") === undefined && get("kind") !== undefined;
}

function oldName(key: string): string {
  return key.startsWith("_") ? key.slice(1) : key;
}

function oldEvents(name: string): string {
  return name.replace(/\bchange:_/g, "change:");
}

/** The model as the views read it: unchanged, or with the old names behind the new ones. */
export function readable(model: AnyModel<Model>): AnyModel<Model> {
  if (!hasOldNames(model)) return model;
  return new Proxy(model, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === "get" || property === "set") {
        return (key: string, ...rest: unknown[]) => method.call(target, oldName(key), ...rest);
      }
      if (property === "on" || property === "off") {
        return (name: unknown, ...rest: unknown[]) =>
          method.call(target, typeof name === "string" ? oldEvents(name) : name, ...rest);
      }
      return method.bind(target);
    },
  });
}
