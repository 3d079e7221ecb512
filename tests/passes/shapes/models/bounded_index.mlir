// A bounded dynamic size and an index tensor, serialized by JAX's tooling for the bytecode reader test:
//   .venv/bin/python tools/bytecode/serialize.py tests/passes/shapes/models/bounded_index.mlir tests/passes/shapes/models/bounded_index.mlirbc
func.func @main(%arg0: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %arg1: tensor<2xindex>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  return %0 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
}
