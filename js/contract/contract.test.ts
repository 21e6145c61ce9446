// The constants the front end shows are the contract file's, not retyped copies.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { APPROVAL_TEXT } from "../kinds/approval/view";
import {
  DECISION_TEXT,
  MAX_NOTE_CHARS,
  MAX_OTHER_CHARS,
  MAX_PREVIEW_CHARS,
  NO_PREFERENCE,
  STATUS_TEXT,
  isRecommended,
} from "./contract";
import { TEXT } from "../kinds/question/view";

const here = dirname(fileURLToPath(import.meta.url));
const contract = JSON.parse(readFileSync(join(here, "..", "..", "src", "nbask", "contract.json"), "utf8")) as Record<string, unknown>;

describe("wire contract", () => {
  it("takes statuses, decisions and fixed texts from contract.json", () => {
    expect(STATUS_TEXT).toEqual(contract.status_text);
    expect(DECISION_TEXT).toEqual(contract.decision_text);
    expect(NO_PREFERENCE).toBe(contract.no_preference);
    expect(TEXT.noPreference).toBe(contract.no_preference);
    expect(MAX_OTHER_CHARS).toBe(contract.max_other_chars);
    expect(MAX_NOTE_CHARS).toBe(contract.max_note_chars);
    expect(MAX_PREVIEW_CHARS).toBe(contract.max_preview_chars);
  });

  it("reads (Recommended) as the Python side does: a case-insensitive suffix", () => {
    expect(isRecommended("PostgreSQL (Recommended)")).toBe(true);
    expect(isRecommended("x (recommended)  ")).toBe(true);
    expect(isRecommended("Recommended option")).toBe(false);
  });

  it("keeps the approval's accessible names as SPEC §2b fixes them", () => {
    expect([APPROVAL_TEXT.approve, APPROVAL_TEXT.edit, APPROVAL_TEXT.reject]).toEqual(["Approve", "Edit", "Reject"]);
    expect([APPROVAL_TEXT.details, APPROVAL_TEXT.reason]).toEqual(["Details", "Reason"]);
  });
});
