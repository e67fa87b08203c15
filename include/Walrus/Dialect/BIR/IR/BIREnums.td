//===- BIREnums.td - bir enumerations ----------------------*- tablegen -*-===//

#ifndef WALRUS_DIALECT_BIR_IR_BIRENUMS_TD
#define WALRUS_DIALECT_BIR_IR_BIRENUMS_TD

include "mlir/IR/EnumAttr.td"

def BIR_MemorySpace : I32EnumAttr<"MemorySpace", "memory a tensor lives in", [
    I32EnumAttrCase<"SBUF", 0, "sbuf">,
    I32EnumAttrCase<"PSUM", 1, "psum">,
    I32EnumAttrCase<"DRAM", 2, "dram">]> {
  let cppNamespace = "::walrus::bir";
}

def BIR_TensorKind : I32EnumAttr<"TensorKind",
    "whether a tensor is a program input, output or internal", [
    I32EnumAttrCase<"Input", 0, "input">,
    I32EnumAttrCase<"Output", 1, "output">,
    I32EnumAttrCase<"Internal", 2, "internal">]> {
  let cppNamespace = "::walrus::bir";
}

def BIR_ActivationFunction : I32EnumAttr<"ActivationFunction",
    "function applied by the scalar (activation) engine", [
    I32EnumAttrCase<"Identity", 0, "identity">,
    I32EnumAttrCase<"Exp", 1, "exp">,
    I32EnumAttrCase<"Relu", 2, "relu">,
    I32EnumAttrCase<"Gelu", 3, "gelu">,
    I32EnumAttrCase<"Silu", 4, "silu">,
    I32EnumAttrCase<"Tanh", 5, "tanh">,
    I32EnumAttrCase<"Sigmoid", 6, "sigmoid">,
    I32EnumAttrCase<"Square", 7, "square">,
    I32EnumAttrCase<"Rsqrt", 8, "rsqrt">,
    I32EnumAttrCase<"Reciprocal", 9, "reciprocal">,
    I32EnumAttrCase<"Sqrt", 10, "sqrt">,
    I32EnumAttrCase<"Log", 11, "log">,
    I32EnumAttrCase<"Erf", 12, "erf">,
    I32EnumAttrCase<"Abs", 13, "abs">,
    I32EnumAttrCase<"GeluApproxTanh", 14, "gelu_apprx_tanh">]> {
  let cppNamespace = "::walrus::bir";
}

def BIR_ComputeEngine : I32EnumAttr<"ComputeEngine",
    "the engine an elementwise instruction runs on", [
    I32EnumAttrCase<"Vector", 0, "vector">,
    I32EnumAttrCase<"Scalar", 1, "scalar">,
    I32EnumAttrCase<"Gpsimd", 2, "gpsimd">]> {
  let cppNamespace = "::walrus::bir";
  let description = [{
    NKI's `engine=` argument (`nki.isa.engine.vector`, `.scalar`,
    `.gpsimd`): which engine runs a `tensor_tensor`, `tensor_scalar`,
    `tensor_copy` or `memset`. It changes when the instruction runs, not
    what it computes. Without it an instruction runs on its default engine
    (the vector engine; GpSimd for `memset`).
  }];
}

def BIR_AluOp : I32EnumAttr<"AluOp", "elementwise vector-engine operation", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Subtract", 1, "subtract">,
    I32EnumAttrCase<"Multiply", 2, "multiply">,
    I32EnumAttrCase<"Divide", 3, "divide">,
    I32EnumAttrCase<"Max", 4, "max">,
    I32EnumAttrCase<"Min", 5, "min">,
    I32EnumAttrCase<"MaxNum", 6, "maxnum">,
    I32EnumAttrCase<"MinNum", 7, "minnum">,
    I32EnumAttrCase<"IsEqual", 8, "is_equal">,
    I32EnumAttrCase<"NotEqual", 9, "not_equal">,
    I32EnumAttrCase<"IsGt", 10, "is_gt">,
    I32EnumAttrCase<"IsGe", 11, "is_ge">,
    I32EnumAttrCase<"IsLt", 12, "is_lt">,
    I32EnumAttrCase<"IsLe", 13, "is_le">]> {
  let cppNamespace = "::walrus::bir";
  let description = [{
    On integers every operation is exact two's complement arithmetic of the
    element width: `add`, `subtract` and `multiply` wrap, `divide` rounds
    toward zero, `max` / `min` compare as the type's signedness says
    (signless as signed). On floats `max` / `min` are IEEE 754-2019
    maximum / minimum (a NaN operand gives NaN, -0 < +0) and `maxnum` /
    `minnum` maximumNumber / minimumNumber (a NaN operand gives the other
    operand), as `arith.maximumf` and `arith.maxnumf`.

    The comparisons (`is_equal`, `not_equal`, `is_gt`, `is_ge`, `is_lt`,
    `is_le`: the NKI ALU's `equal`, `not_equal`, `greater`,
    `greater_equal`, `less`, `less_equal`) give 1 where `lhs <op> rhs`
    holds and 0 where not, in `dst`'s type. On floats they are IEEE 754
    comparisons: a NaN operand makes every one false but `not_equal`, and
    -0 equals +0. On integers they compare as `max` does.
  }];
}

def BIR_CollectiveKind : I32EnumAttr<"CollectiveKind",
    "cross-core collective operation", [
    I32EnumAttrCase<"AllReduce", 0, "all_reduce">,
    I32EnumAttrCase<"AllGather", 1, "all_gather">,
    I32EnumAttrCase<"ReduceScatter", 2, "reduce_scatter">]> {
  let cppNamespace = "::walrus::bir";
}

#endif // WALRUS_DIALECT_BIR_IR_BIRENUMS_TD
