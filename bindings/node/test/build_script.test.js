// scripts/build.mjs and node-gyp's configure: a build refuses to configure
// without node-addon-api (instead of leaving a Makefile that cannot find
// napi.h), and configures again whenever what the last configure baked in
// changed, so `npm ci && npm run build` after a failed build works.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import {
  CONFIGURE_STAMP,
  configureInputs,
  needsConfigure,
} from "../scripts/gyp_vars.mjs";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("node-gyp configure inputs", () => {
  let dir;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "rockpoint-gyp-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("configures when there is no Makefile or no stamp", () => {
    const inputs = configureInputs("/opt/rockpoint", "/usr");
    expect(needsConfigure(dir, inputs)).toBe(true);
    fs.writeFileSync(path.join(dir, "Makefile"), "");
    expect(needsConfigure(dir, inputs)).toBe(true);
    fs.writeFileSync(path.join(dir, CONFIGURE_STAMP), inputs);
    expect(needsConfigure(dir, inputs)).toBe(false);
  });

  it("configures again when an include directory, prefix or nodedir changed", () => {
    const inputs = configureInputs("/opt/rockpoint", "/usr");
    fs.writeFileSync(path.join(dir, "Makefile"), "");
    // The configure of a build that ran before node-addon-api was installed
    // recorded another include directory.
    const stale = JSON.parse(inputs);
    stale.include[1] = path.join(pkgDir, "rockpoint", "node-addon-api");
    fs.writeFileSync(path.join(dir, CONFIGURE_STAMP), JSON.stringify(stale));
    expect(needsConfigure(dir, inputs)).toBe(true);
    fs.writeFileSync(path.join(dir, CONFIGURE_STAMP), inputs);
    expect(needsConfigure(dir, configureInputs("/opt/other", "/usr"))).toBe(true);
    expect(needsConfigure(dir, configureInputs("/opt/rockpoint", "/opt/node"))).toBe(
      true,
    );
  });
});

describe("npm run build without node-addon-api", () => {
  it("fails before configuring, saying to run npm ci", () => {
    // A copy of the package with no node_modules in reach.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rockpoint-nodeps-"));
    try {
      for (const entry of ["scripts", "binding.gyp", "package.json"]) {
        fs.cpSync(path.join(pkgDir, entry), path.join(dir, entry), {
          recursive: true,
        });
      }
      const prefix = fs.mkdtempSync(path.join(dir, "prefix-"));
      fs.mkdirSync(path.join(prefix, "include"));
      fs.mkdirSync(path.join(prefix, "lib"));
      fs.writeFileSync(
        path.join(prefix, "lib", "librockpoint_open_embedded.a"),
        "",
      );
      const result = spawnSync(process.execPath, ["scripts/build.mjs"], {
        cwd: dir,
        env: { ...process.env, ROCKPOINT_PREFIX: prefix },
        encoding: "utf8",
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("node-addon-api");
      expect(result.stderr).toContain("run npm ci first");
      expect(fs.existsSync(path.join(dir, "build", "Makefile"))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
