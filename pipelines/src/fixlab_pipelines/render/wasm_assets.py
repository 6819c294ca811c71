"""DuckDB-Wasm for the portal's SQL page, self-hosted: fetched from the npm registry, checked, copied.

The two npm packages are pinned here by version and by the SHA-256 of their tarball; `npm pack`
fetches a tarball once into a cache folder, and a tarball whose digest differs is refused.
Only what the browser needs is copied into the site (the ES module, the MVP and EH workers
and WebAssembly modules: about 40 MB, never committed).

duckdb-browser.mjs imports the bare name "apache-arrow", which a browser cannot resolve
without a bundler or an import map (and Material's instant navigation swaps pages without
reloading import maps). The copy imports ./apache-arrow.mjs instead: a small module that
loads Arrow's own browser bundle (a UMD script that defines the global `Arrow`) and
re-exports the names duckdb-browser.mjs uses.

    python -m fixlab_pipelines.render.wasm_assets DEST [--cache DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError


@dataclass(frozen=True)
class NpmPackage:
    name: str
    version: str
    sha256: str

    @property
    def tarball(self) -> str:
        """The file name `npm pack` gives the tarball."""
        return f"{self.name.lstrip('@').replace('/', '-')}-{self.version}.tgz"


# 1.28.0 (DuckDB 0.9) is the last release whose WebAssembly modules have Parquet built in:
# later ones fetch the parquet extension from DuckDB's extension host when a query first reads
# Parquet, and this site loads nothing from another host.
DUCKDB_WASM = NpmPackage("@duckdb/duckdb-wasm", "1.28.0",
                         "9c3fbcc88b09ffbf31ac80820403e696cf85930b7b03eb42a53dd8a8775a1496")
# The version duckdb-wasm 1.28.0 depends on (^13.0.0).
APACHE_ARROW = NpmPackage("apache-arrow", "13.0.0",
                          "0fc8b25fe5e7eda4079ab58d94464aee29697a023fe399da5ad50c75499a15d8")

DUCKDB_FILES = ["duckdb-browser.mjs", "duckdb-browser-mvp.worker.js", "duckdb-browser-eh.worker.js",
                "duckdb-mvp.wasm", "duckdb-eh.wasm"]
ARROW_BUNDLE = "Arrow.es2015.min.js"
ARROW_IMPORT = re.compile(r'from\s*"apache-arrow"')
STAMP = ".version"


def fetch(package: NpmPackage, cache: Path) -> Path:
    """The package's tarball in `cache`, fetched with `npm pack` when absent; its digest checked."""
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / package.tarball
    if not tarball.exists():
        if shutil.which("npm") is None:
            raise UsageError("npm is needed to fetch DuckDB-Wasm from the npm registry (apt-get install npm)")
        subprocess.run(["npm", "pack", "--silent", "--pack-destination", str(cache),
                        f"{package.name}@{package.version}"], check=True, stdout=subprocess.DEVNULL)
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if digest != package.sha256:
        tarball.unlink()
        raise UsageError(f"{package.name}@{package.version}: tarball SHA-256 {digest}, pinned {package.sha256}; "
                         "refusing it (a new version needs a new pin in render/wasm_assets.py)")
    return tarball


def arrow_names(duckdb_module: str) -> list[str]:
    """The names duckdb-browser.mjs takes from its `import * as x from "apache-arrow"` bindings."""
    names: set[str] = set()
    for binding in re.findall(r'import\s*\*\s*as\s+([\w$]+)\s*from\s*"apache-arrow"', duckdb_module):
        names |= set(re.findall(rf"(?<![\w$.]){re.escape(binding)}\.([A-Za-z_]\w*)", duckdb_module))
    if not names:
        raise UsageError("duckdb-browser.mjs takes nothing from apache-arrow: the packaging changed, "
                         "revisit render/wasm_assets.py")
    return sorted(names)


def arrow_shim(names: list[str]) -> str:
    exports = ", ".join(names)
    return f"""// Written by fixlab_pipelines.render.wasm_assets: apache-arrow {APACHE_ARROW.version} as an ES module.
// Loads Arrow's browser bundle, which defines the global Arrow, and re-exports what DuckDB-Wasm uses.
if (!globalThis.Arrow) {{
  await new Promise((resolve, reject) => {{
    const script = document.createElement("script");
    script.src = new URL("arrow.js", import.meta.url).href;
    script.onload = resolve;
    script.onerror = () => reject(new Error("cannot load " + script.src));
    document.head.appendChild(script);
  }});
}}
const Arrow = globalThis.Arrow;
export const {{ {exports} }} = Arrow;
export default Arrow;
"""


def install(dest: Path, cache: Path) -> bool:
    """Copy the pinned DuckDB-Wasm into `dest`; False when it is there already."""
    stamp = dest / STAMP
    wanted = f"{DUCKDB_WASM.name}@{DUCKDB_WASM.version} {APACHE_ARROW.name}@{APACHE_ARROW.version}\n"
    if stamp.exists() and stamp.read_text(encoding="utf-8") == wanted \
            and all((dest / name).exists() for name in DUCKDB_FILES):
        return False
    duckdb_tgz, arrow_tgz = fetch(DUCKDB_WASM, cache), fetch(APACHE_ARROW, cache)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        unpacked = Path(tmp)
        for tgz, folder in ((duckdb_tgz, "duckdb"), (arrow_tgz, "arrow")):
            with tarfile.open(tgz) as archive:
                archive.extractall(unpacked / folder, filter="data")
        dist = unpacked / "duckdb" / "package" / "dist"
        for name in DUCKDB_FILES:
            shutil.copyfile(dist / name, dest / name)
        module = (dest / "duckdb-browser.mjs").read_text(encoding="utf-8")
        names = arrow_names(module)
        (dest / "duckdb-browser.mjs").write_text(ARROW_IMPORT.sub('from"./apache-arrow.mjs"', module),
                                                 encoding="utf-8")
        arrow = unpacked / "arrow" / "package"
        shutil.copyfile(arrow / ARROW_BUNDLE, dest / "arrow.js")
        (dest / "apache-arrow.mjs").write_text(arrow_shim(names), encoding="utf-8")
        shutil.copyfile(arrow / "LICENSE.txt", dest / "LICENSE-apache-arrow.txt")  # duckdb-wasm ships none (MIT)
    stamp.write_text(wanted, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m fixlab_pipelines.render.wasm_assets", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dest", type=Path, help="folder of the site that serves DuckDB-Wasm, e.g. site/assets/duckdb")
    p.add_argument("--cache", type=Path, default=Path(".cache") / "npm", help="tarball cache (default: %(default)s)")
    options = p.parse_args(argv)
    try:
        copied = install(options.dest, options.cache)
    except UsageError as e:
        print(f"duckdb-wasm: {e}", file=sys.stderr)
        return 2
    print(f"duckdb-wasm {DUCKDB_WASM.version}: {'copied into' if copied else 'already in'} {options.dest}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
