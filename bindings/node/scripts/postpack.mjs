// npm "postpack" script: removes what scripts/prepack.mjs added (only in a
// rockpoint checkout; an unpacked package keeps them).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (fs.existsSync(path.join(pkgDir, "..", "..", "include", "rockpoint"))) {
  for (const dir of ["rockpoint", "prebuilds"]) {
    fs.rmSync(path.join(pkgDir, dir), { recursive: true, force: true });
  }
}
