//===- BIR.h - The bir dialect ----------------------------------*- C++ -*-===//
//
// Everything a client of the bir dialect includes: dialect, enums,
// interfaces, attributes, types and operations.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_DIALECT_BIR_IR_BIR_H
#define WALRUS_DIALECT_BIR_IR_BIR_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Walrus/Dialect/BIR/IR/BIREnums.h.inc"
#include "Walrus/Dialect/BIR/IR/BIROpsDialect.h.inc"

#include "Walrus/Dialect/BIR/IR/BIRAttrInterfaces.h.inc"
#include "Walrus/Dialect/BIR/IR/BIRTypeInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Walrus/Dialect/BIR/IR/BIRAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "Walrus/Dialect/BIR/IR/BIROpsTypes.h.inc"

namespace walrus::bir {

/// The element type a tensor of `type` holds in bir memory: an i1 is a
/// byte, 0 or 1, as LLVM stores a memref of i1 and as NKI's predicates
/// are uint8; other types are themselves.
inline mlir::Type getStorageType(mlir::Type type) {
  if (type.isInteger(1))
    return mlir::IntegerType::get(type.getContext(), 8);
  return type;
}

/// Whether `alu` compares (its result 1 or 0) rather than combines values:
/// the comparisons follow the arithmetic in AluOp.
inline bool isComparison(AluOp alu) { return alu >= AluOp::IsEqual; }

/// How an instruction uses a tensor.
enum class AccessKind { Read, Write, ReadWrite };

/// One tensor access of an instruction: the operand naming the memory
/// location (or view) and the attribute holding its access pattern. Passes
/// rewrite an access through `setMemloc` and `setPattern`.
struct Access {
  mlir::OpOperand *operand;
  mlir::StringAttr patternName;
  /// The pattern in the owner's properties: read and written in place,
  /// where a lookup by name compares the names of every inherent attribute.
  AccessPatternAttr *pattern;
  AccessKind kind;

  mlir::Operation *getOwner() const { return operand->getOwner(); }
  mlir::Value getMemloc() const { return operand->get(); }
  MemoryType getMemoryType() const {
    return llvm::cast<MemoryType>(getMemloc().getType());
  }
  AccessPatternAttr getPattern() const { return *pattern; }
  void setMemloc(mlir::Value memloc) const { operand->set(memloc); }
  void setPattern(AccessPatternAttr newPattern) const { *pattern = newPattern; }
  bool reads() const { return kind != AccessKind::Write; }
  bool writes() const { return kind != AccessKind::Read; }
};

/// Fails (through `emitError`) when `expr` divides (floordiv, ceildiv,
/// mod) by anything but a positive constant: evaluating it could divide by
/// zero or by a core's shard id. `what` names the map in the message.
mlir::LogicalResult
verifyDivisors(mlir::AffineExpr expr,
               llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
               llvm::StringRef what);

/// Shared verifier of every instruction: access patterns in bounds for
/// every loop iteration and shard id, well-formed masks.
mlir::LogicalResult verifyInstruction(mlir::Operation *op);

/// Checks what depends on the core instruction `op` runs on, for each of
/// `shardIds` of a program over `lncSize` cores: every access stays inside
/// its memory location on every loop iteration, and a bir.sb2sb peer is a
/// core of the program.
mlir::LogicalResult verifyForCores(mlir::Operation *op,
                                   llvm::ArrayRef<int64_t> shardIds,
                                   int64_t lncSize);

} // namespace walrus::bir

#include "Walrus/Dialect/BIR/IR/BIROpInterfaces.h.inc"

namespace walrus::bir {
class MemlocOp;
} // namespace walrus::bir

#define GET_OP_CLASSES
#include "Walrus/Dialect/BIR/IR/BIROps.h.inc"

namespace walrus::bir {

/// The target of the closest enclosing module that names one, else trn2.
TargetAttr getTarget(mlir::Operation *op);

/// `bir.lnc_size` of the closest enclosing module that has it, else 1.
int64_t getLncSize(mlir::Operation *op);

/// Checks a pass's `lnc-size` option (0: read bir.lnc_size), with an
/// error at `op` naming `pass` when it is out of range.
mlir::LogicalResult checkLncSizeOption(mlir::Operation *op,
                                       llvm::StringRef pass, int64_t lncSize);

/// `bir.neuron_core_id` of the closest enclosing module, if concretized.
std::optional<int64_t> getNeuronCoreId(mlir::Operation *op);

/// The `bir.loop`s around `op`, outermost first.
llvm::SmallVector<LoopOp, 4> getEnclosingLoops(mlir::Operation *op);

/// Whether `op` is an instruction whose counterpart must run on every core
/// (core barriers, collectives, sb2sb copies).
bool isCrossCore(mlir::Operation *op);

/// The memory location a tensor value names, looking through views.
MemlocOp getDefiningMemloc(mlir::Value tensor);

/// How many elements a launch binds for `memref`: from its buffer's first
/// element to one past the last element its layout reaches (the element
/// count for the identity layout). None for dynamic layouts or overflow.
std::optional<int64_t> getBoundElementCount(mlir::MemRefType memref);

/// The immediate of a memset or tensor_scalar (an i64 or f64 attribute)
/// as a double; an i64 beyond 2^53 rounds.
double getImmediateAsDouble(mlir::Attribute immediate);
/// The immediate as an integer, if it is an i64 attribute.
std::optional<int64_t> getImmediateAsInteger(mlir::Attribute immediate);
/// An f64 immediate of `value`.
mlir::Attribute getFloatImmediate(mlir::MLIRContext *context, double value);
/// An i64 immediate of `value`.
mlir::Attribute getIntegerImmediate(mlir::MLIRContext *context, int64_t value);

} // namespace walrus::bir

#endif // WALRUS_DIALECT_BIR_IR_BIR_H
