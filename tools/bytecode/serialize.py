#!/usr/bin/env python3
"""Serializes a StableHLO text file as a portable artifact with JAX's own tooling
(stablehlo.serialize_portable_artifact), for vkhlo-run, vkhlo-opt and Client::CompileStableHlo.

  python tools/bytecode/serialize.py IN.mlir OUT.mlirbc [--version 1.15.0|WEEK_4|WEEK_12|current]

Needs jax (the pinned environment tools/install-deps.sh makes: .venv/bin/python).
"""
import argparse
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--version", default="WEEK_4", help="target StableHLO version (default WEEK_4, as jax.export)")
    args = parser.parse_args()
    from jax._src.interpreters import mlir as jax_mlir
    from jax.extend.mlir import ir
    from jax.extend.mlir.dialects import stablehlo
    requirement = stablehlo.StablehloCompatibilityRequirement
    named = {"WEEK_4": stablehlo.get_version_from_compatibility_requirement(requirement.WEEK_4),
             "WEEK_12": stablehlo.get_version_from_compatibility_requirement(requirement.WEEK_12),
             "current": stablehlo.get_current_version()}
    version = named.get(args.version, args.version)
    with open(args.input, encoding="utf-8") as f:
        text = f.read()
    with jax_mlir.make_ir_context():
        data = stablehlo.serialize_portable_artifact(ir.Module.parse(text), version)
    with open(args.output, "wb") as f:
        f.write(data)
    print(f"{args.output}: {len(data)} bytes, StableHLO {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
