#!/usr/bin/env python3
"""Serializes every program of ../shared/conformance as StableHLO portable artifacts with JAX's
own tooling, at several target versions, for vkhlo's bytecode reader tests.

For each program (each `// -----` chunk of the interpret/ files, each whole jax/ file) and each
target version it writes, under OUT/<version>/:
  <name>.mlirbc             jax.extend.mlir.dialects.stablehlo.serialize_portable_artifact(
                            module, version, allow_other_dialects=True): the check.* and chlo.*
                            ops of the test programs stay as they are beside the VHLO ops
  <name>.deserialized.mlir  the artifact read back by JAX (deserialize_portable_artifact), as text:
                            the program the artifact holds, for comparing vkhlo's reader with
                            vkhlo's text parser
OUT/versions.tsv naming JAX's windows (WEEK_12, WEEK_4, current: their version numbers), and
OUT/manifest.tsv with one line per program and version:
  version  key  status  artifact  deserialized  detail
where key is the conformance key ("interpret/add.mlir:15", "jax/abs_float32_20_20.mlir") and
status is "ok" or "not-serializable" (JAX cannot write that program at that version: an op,
type or feature newer than the version, or a program JAX's parser rejects).

The jax/ programs go to JAX as written. The interpret/ programs hold pretty check.* ops, which
JAX cannot parse, so they go as vkhlo-opt prints them (MLIR's generic form).

Needs the pinned jax/jaxlib (tools/install-deps.sh makes the virtual environment).
"""
import argparse
import os
import subprocess
import sys
import tempfile


def chunks_of(path, split):
    """(first_line, text) for each `// -----` chunk, numbered as vkhlo's SplitInputFile does."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not split:
        return [(1, text)]
    chunks, lines, first, current = [], text.split("\n"), 1, []
    for number, line in enumerate(lines, start=1):
        if line == "// -----":
            chunks.append((first, "\n".join(current)))
            first, current = number + 1, []
        else:
            current.append(line)
    chunks.append((first, "\n".join(current)))
    return chunks


def generic_form(vkhlo_opt, text):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        name = f.name
    try:
        out = subprocess.run([vkhlo_opt, name], capture_output=True, text=True)
    finally:
        os.unlink(name)
    if out.returncode != 0:
        raise RuntimeError("vkhlo-opt: " + out.stderr.strip().split("\n")[0])
    return out.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conformance", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--vkhlo-opt", required=True)
    # 0.9.0, 0.10.0, 0.12.0 and 0.14.0 are written as MLIR bytecode versions 0, 1, 3 and 4; the
    # later ones as version 6.
    parser.add_argument("--versions", default="0.9.0,0.10.0,0.12.0,0.14.0,1.0.0,WEEK_12,WEEK_4,current",
                        help="target versions: numbers, WEEK_12, WEEK_4 (JAX's compatibility windows), current")
    args = parser.parse_args()

    from jax._src.interpreters import mlir as jax_mlir
    from jax.extend.mlir import ir
    from jax.extend.mlir.dialects import stablehlo

    requirement = stablehlo.StablehloCompatibilityRequirement
    named = {"WEEK_12": stablehlo.get_version_from_compatibility_requirement(requirement.WEEK_12),
             "WEEK_4": stablehlo.get_version_from_compatibility_requirement(requirement.WEEK_4),
             "current": stablehlo.get_current_version()}
    versions = []
    for v in args.versions.split(","):
        v = named.get(v, v)
        if v not in versions:
            versions.append(v)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "versions.tsv"), "w") as f:
        for name, version in named.items():
            f.write(f"{name}\t{version}\n")

    programs = []  # (key, text for JAX)
    for folder in ("interpret", "interpret/chlo", "jax"):
        directory = os.path.join(args.conformance, folder)
        if not os.path.isdir(directory):
            continue
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".mlir"):
                continue
            relative = f"{folder}/{name}"
            split = folder.startswith("interpret")
            for first_line, text in chunks_of(os.path.join(directory, name), split):
                key = f"{relative}:{first_line}" if split else relative
                try:
                    programs.append((key, generic_form(args.vkhlo_opt, text) if split else text, None))
                except RuntimeError as e:
                    programs.append((key, None, str(e)))

    counts = {v: 0 for v in versions}
    with open(os.path.join(args.out, "manifest.tsv.tmp"), "w") as manifest:
        for key, text, problem in programs:
            stem = key.replace("/", "_").replace(":", ".")
            module = None
            if problem is None:
                with jax_mlir.make_ir_context() as context:
                    context.allow_unregistered_dialects = True
                    try:
                        module = ir.Module.parse(text)
                    except Exception as e:  # JAX's parser rejects the program
                        problem = "JAX cannot parse it: " + str(e).replace("\n", " ")[:300]
                    for version in versions:
                        if module is None:
                            manifest.write(f"{version}\t{key}\tnot-serializable\t\t\t{problem}\n")
                            continue
                        try:
                            data = stablehlo.serialize_portable_artifact(module, version, True)
                        except Exception:
                            manifest.write(f"{version}\t{key}\tnot-serializable\t\t\t"
                                           f"JAX cannot serialize it for StableHLO {version}\n")
                            continue
                        directory = os.path.join(args.out, version)
                        os.makedirs(directory, exist_ok=True)
                        artifact = os.path.join(directory, stem + ".mlirbc")
                        with open(artifact, "wb") as f:
                            f.write(data)
                        back = stablehlo.deserialize_portable_artifact(context, data)
                        deserialized = os.path.join(directory, stem + ".deserialized.mlir")
                        with open(deserialized, "w") as f:
                            f.write(back.operation.get_asm())
                        manifest.write(f"{version}\t{key}\tok\t{artifact}\t{deserialized}\t\n")
                        counts[version] += 1
            else:
                for version in versions:
                    manifest.write(f"{version}\t{key}\tnot-serializable\t\t\t{problem}\n")
    os.replace(os.path.join(args.out, "manifest.tsv.tmp"), os.path.join(args.out, "manifest.tsv"))
    total = len(programs)
    for version in versions:
        print(f"StableHLO {version}: {counts[version]} of {total} programs serialized")
    return 0


if __name__ == "__main__":
    sys.exit(main())
