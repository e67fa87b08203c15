//===- MiniMallocImport.cpp - MiniMalloc CSV -> BIR -----------------------===//
//
// Each buffer becomes a 128 x size i8 SBUF tensor (or partitions x size,
// given the optional `partitions` column, a Walrus extension), written by
// a memset at its first time step and read by a DMA at its last one.
// Within one time step every write comes before every read, so two
// tensors' live ranges overlap in program order exactly when their
// [lower, upper) intervals do. The function keeps the ids and lifetimes
// for the export.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Target/MiniMalloc.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

/// Keeps every sum of offsets and sizes far from overflowing int64_t.
static constexpr int64_t kMaxSize = int64_t(1) << 40;

namespace {
constexpr int64_t kPartitions = 128;

struct Buffer {
  StringAttr id;
  int64_t lower, upper, size, partitions;
  Location loc;
};

/// The columns of a row, by header name.
struct Columns {
  unsigned id = 0, lower = 1, upper = 2, size = 3;
  std::optional<unsigned> partitions;
  unsigned count = 4;
};

class CsvReader {
public:
  CsvReader(llvm::SourceMgr &sourceMgr, MLIRContext *context)
      : buffer(sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())),
        context(context),
        fileName(StringAttr::get(context, buffer->getBufferIdentifier())) {}

  /// The rows, or nothing after an error was emitted.
  std::optional<SmallVector<Buffer>> read();

private:
  Location getLoc(unsigned line) const {
    return FileLineColLoc::get(fileName, line, 1);
  }
  LogicalResult readHeader(ArrayRef<StringRef> fields, unsigned line);
  std::optional<int64_t> readInteger(StringRef field, StringRef column,
                                     unsigned line);
  /// The buffer of one data row, or nothing after an error.
  std::optional<Buffer> readRow(ArrayRef<StringRef> fields, unsigned line);

  const llvm::MemoryBuffer *buffer;
  MLIRContext *context;
  /// Every row's location names the file: one attribute for all of them.
  StringAttr fileName;
  Columns columns;
};
} // namespace

LogicalResult CsvReader::readHeader(ArrayRef<StringRef> fields, unsigned line) {
  std::optional<unsigned> id, lower, upper, size;
  const std::pair<StringRef, std::optional<unsigned> *> slots[] = {
      {"id", &id}, {"lower", &lower}, {"upper", &upper}, {"size", &size}};
  for (auto [index, field] : llvm::enumerate(fields))
    for (auto [key, slot] : slots)
      if (field.trim() == key)
        *slot = index;
  for (auto [key, slot] : slots)
    if (!*slot)
      return emitError(getLoc(line))
             << "MiniMalloc CSV header has no '" << key
             << "' column (expected id,lower,upper,size)";
  std::optional<unsigned> partitions;
  for (auto [index, field] : llvm::enumerate(fields))
    if (field.trim() == "partitions")
      partitions = index;
  columns = {*id, *lower, *upper, *size, partitions, unsigned(fields.size())};
  return success();
}

std::optional<int64_t> CsvReader::readInteger(StringRef field, StringRef column,
                                              unsigned line) {
  int64_t value;
  if (field.trim().getAsInteger(10, value)) {
    emitError(getLoc(line)) << "'" << field.trim() << "' in column '" << column
                            << "' is not an integer";
    return std::nullopt;
  }
  return value;
}

std::optional<Buffer> CsvReader::readRow(ArrayRef<StringRef> fields,
                                         unsigned line) {
  if (fields.size() < columns.count) {
    emitError(getLoc(line))
        << "expected " << columns.count
        << " columns (id,lower,upper,size), got " << fields.size();
    return std::nullopt;
  }
  StringRef id = fields[columns.id].trim();
  std::optional<int64_t> lower, upper, size, partitions = kPartitions;
  if (!(lower = readInteger(fields[columns.lower], "lower", line)) ||
      !(upper = readInteger(fields[columns.upper], "upper", line)) ||
      !(size = readInteger(fields[columns.size], "size", line)))
    return std::nullopt;
  if (columns.partitions) {
    partitions = readInteger(fields[*columns.partitions], "partitions", line);
    if (!partitions)
      return std::nullopt;
    if (*partitions < 1 || *partitions > kPartitions) {
      emitError(getLoc(line)) << "buffer '" << id << "' has " << *partitions
                              << " partitions: need 1 to " << kPartitions;
      return std::nullopt;
    }
  }
  if (id.empty()) {
    emitError(getLoc(line)) << "buffer has an empty id";
    return std::nullopt;
  }
  if (*size <= 0 || *size > kMaxSize) {
    emitError(getLoc(line)) << "buffer '" << id << "' has size " << *size
                            << ": sizes must be in [1, 2^40]";
    return std::nullopt;
  }
  if (*lower < 0 || *lower >= *upper) {
    emitError(getLoc(line)) << "buffer '" << id << "' has lifetime [" << *lower
                            << ", " << *upper << "): need 0 <= lower < upper";
    return std::nullopt;
  }
  return Buffer{StringAttr::get(context, id),
                *lower,
                *upper,
                *size,
                *partitions,
                getLoc(line)};
}

std::optional<SmallVector<Buffer>> CsvReader::read() {
  SmallVector<Buffer> buffers;
  // Uniqued ids: one pointer hash per row finds the repeats.
  llvm::DenseMap<StringAttr, unsigned> firstLine;
  SmallVector<StringRef, 8> fields;
  StringRef rest = buffer->getBuffer();
  // A UTF-8 byte-order mark (spreadsheet exports) is not part of the header.
  rest.consume_front("\xEF\xBB\xBF");
  bool first = true;
  for (unsigned line = 1; !rest.empty(); ++line) {
    auto [text, next] = rest.split('\n');
    rest = next;
    text = text.trim();
    if (text.empty())
      continue;
    fields.clear();
    text.split(fields, ',');
    // A first row without a number in the `lower` column (or without
    // that column) is the header.
    int64_t ignored;
    if (first && (fields.size() <= columns.lower ||
                  fields[columns.lower].trim().getAsInteger(10, ignored))) {
      first = false;
      if (failed(readHeader(fields, line)))
        return std::nullopt;
      continue;
    }
    first = false;
    std::optional<Buffer> row = readRow(fields, line);
    if (!row)
      return std::nullopt;
    auto [it, inserted] = firstLine.try_emplace(row->id, line);
    if (!inserted) {
      emitError(getLoc(line)) << "duplicate buffer id '" << row->id.getValue()
                              << "' (first on line " << it->second << ")";
      return std::nullopt;
    }
    buffers.push_back(*row);
  }
  return buffers;
}

/// A tensor name no buffer uses: "minimalloc_sink" and as many underscores
/// as make it longer than every id of that form.
static std::string getSinkName(ArrayRef<Buffer> rows) {
  std::string name = "minimalloc_sink";
  size_t underscores = 0;
  for (const Buffer &row : rows) {
    StringRef rest = row.id.getValue();
    if (rest.consume_front(name) && rest.find_first_not_of('_') == rest.npos)
      underscores = std::max(underscores, rest.size() + 1);
  }
  return name + std::string(underscores, '_');
}

namespace {
/// Builds @main of the imported program.
class ProgramBuilder {
public:
  ProgramBuilder(FuncOp func, ArrayRef<Buffer> buffers)
      : context(func.getContext()), buffers(buffers),
        builder(OpBuilder::atBlockEnd(&func.getBody().front())),
        byte(builder.getI8Type()) {
    for (const Buffer &buffer : buffers)
      largest = std::max(largest, buffer.size);
  }

  /// One DRAM output receives every read, so no buffer's last use is dead.
  MemlocOp createSink(Location loc);
  /// A tensor per buffer, and the function's id and lifetime tables.
  void createTensors(FuncOp func);
  /// A memset per buffer at `lower` and a DMA to the sink at `upper - 1`,
  /// writes before reads within a step.
  void createAccesses(MemlocOp sink);

private:
  /// Types and access patterns depend on the shape alone, which traces
  /// repeat: each is made (uniqued) once per shape.
  struct Shape {
    SbufType type;
    AccessPatternAttr whole, sinkRows;
  };
  const Shape &getShape(const Buffer &buffer);

  MLIRContext *context;
  ArrayRef<Buffer> buffers;
  OpBuilder builder;
  Type byte;
  int64_t largest = 1;
  llvm::DenseMap<std::pair<int64_t, int64_t>, Shape> shapes;
  SmallVector<MemlocOp> tensors;
};
} // namespace

const ProgramBuilder::Shape &ProgramBuilder::getShape(const Buffer &buffer) {
  auto [it, inserted] =
      shapes.try_emplace({buffer.partitions, buffer.size}, Shape());
  if (inserted)
    it->second = {
        SbufType::get(context, {buffer.partitions, buffer.size}, byte),
        PhysicalAccessPatternAttr::get(context, 0, {buffer.size, 1},
                                       {buffer.partitions, buffer.size}),
        PhysicalAccessPatternAttr::get(context, 0, {largest, 1},
                                       {buffer.partitions, buffer.size})};
  return it->second;
}

MemlocOp ProgramBuilder::createSink(Location loc) {
  return MemlocOp::create(builder, loc,
                          DramType::get(context, {kPartitions, largest}, byte),
                          builder.getStringAttr(getSinkName(buffers)),
                          TensorKindAttr::get(context, TensorKind::Output),
                          StringAttr(), IntegerAttr(), IntegerAttr());
}

void ProgramBuilder::createTensors(FuncOp func) {
  // The ids and lifetimes are two tables on the function, not attributes
  // on each tensor: a uniqued dictionary and two integers per tensor were
  // more than half of the import time.
  auto internal = TensorKindAttr::get(context, TensorKind::Internal);
  SmallVector<Attribute> ids;
  SmallVector<int64_t> lifetimes;
  for (const Buffer &buffer : buffers) {
    ids.push_back(buffer.id);
    lifetimes.append({buffer.lower, buffer.upper});
    tensors.push_back(
        MemlocOp::create(builder, buffer.loc, getShape(buffer).type, buffer.id,
                         internal, StringAttr(), IntegerAttr(), IntegerAttr()));
  }
  func->setAttr(kMiniMallocIdsAttrName, builder.getArrayAttr(ids));
  func->setAttr(kMiniMallocLifetimesAttrName,
                builder.getDenseI64ArrayAttr(lifetimes));
}

void ProgramBuilder::createAccesses(MemlocOp sink) {
  // (time step, read?, buffer): writes at `lower`, reads at `upper - 1`.
  SmallVector<std::tuple<int64_t, bool, unsigned>> events;
  for (auto [index, buffer] : llvm::enumerate(buffers)) {
    events.push_back({buffer.lower, false, index});
    events.push_back({buffer.upper - 1, true, index});
  }
  llvm::sort(events);
  FloatAttr zero = builder.getF64FloatAttr(0.0);
  for (auto [time, reads, index] : events) {
    const Buffer &buffer = buffers[index];
    const Shape &shape = getShape(buffer);
    if (!reads) {
      MemsetOp::create(builder, buffer.loc, tensors[index].getResult(),
                       shape.whole, zero, IntegerSetAttr(),
                       ComputeEngineAttr());
      continue;
    }
    DmaOp::create(builder, buffer.loc, sink.getResult(), shape.sinkRows,
                  tensors[index].getResult(), shape.whole, IntegerSetAttr());
  }
}

OwningOpRef<ModuleOp> walrus::importMiniMallocCsv(llvm::SourceMgr &sourceMgr,
                                                  MLIRContext *context,
                                                  int64_t capacity) {
  context->loadDialect<BIRDialect>();
  std::optional<SmallVector<Buffer>> buffers =
      CsvReader(sourceMgr, context).read();
  if (!buffers)
    return nullptr;
  const llvm::MemoryBuffer *input =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  Location fileLoc =
      FileLineColLoc::get(context, input->getBufferIdentifier(), 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  if (capacity <= 0)
    for (const Buffer &buffer : *buffers)
      capacity = std::min(capacity + buffer.size, kMaxSize * 1024);
  TargetAttr base = TargetAttr::getDefault(context);
  (*module)->setAttr(
      BIRDialect::kTargetAttrName,
      TargetAttr::get(context, "minimalloc", base.getSbufPartitions(),
                      std::max<int64_t>(capacity, 1), base.getPsumPartitions(),
                      base.getPsumBytesPerPartition(), base.getPsumBanks(),
                      base.getMaxStationaryFree(), base.getMaxMovingFree(),
                      base.getPsumReservedBanks()));
  OpBuilder builder = OpBuilder::atBlockEnd(module->getBody());
  auto func = FuncOp::create(builder, fileLoc, "main");
  ProgramBuilder program(func, *buffers);
  MemlocOp sink = program.createSink(fileLoc);
  program.createTensors(func);
  program.createAccesses(sink);
  return module;
}
