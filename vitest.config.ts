import { defineConfig } from "vitest/config";

// The front end's tests run in jsdom; the Python tests live in tests/ and are pytest's.
export default defineConfig({
  test: {
    environment: "jsdom",
    include: ["js/**/*.test.ts"],
  },
});
