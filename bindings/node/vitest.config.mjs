// Test runner settings: the validation suite needs vitest globals
// (describe / it / expect without imports). Test files run in forked
// processes, one at a time, so two files never contend for the 2 cores.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globals: true,
    include: ["test/**/*.test.js"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 30000,
    hookTimeout: 30000,
  },
});
