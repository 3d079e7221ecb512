// A grid of two processes for the failure tests of vkhlo-run --grid=mpi (tests/runtime/mpi): process 0
// waits in an all_reduce; process 1 first loops for far longer than any test runs (a rank stuck
// outside MPI, or one that is killed meanwhile).
func.func @wait(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
func.func @spin(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %limit = stablehlo.constant dense<2000000000> : tensor<i32>
  %w:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %c = stablehlo.compare LT, %i, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %i, %one : tensor<i32>
    %u = stablehlo.add %v, %v : tensor<4xf32>
    stablehlo.return %n, %u : tensor<i32>, tensor<4xf32>
  }
  %r = "stablehlo.all_reduce"(%w#1) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@wait], [@spin]]} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  check.expect_eq_const %r#0, dense<[2.0, 4.0, 6.0, 8.0]> : tensor<4xf32>
  func.return
}
