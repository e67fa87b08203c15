//===- Diagnostics.cpp - MLIR diagnostics as Python data ------------------===//

#include "Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <unistd.h>

using namespace mlir;
using namespace walrus::python;

static StringRef getSeverityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  llvm_unreachable("unknown severity");
}

static DiagnosticRecord toRecord(Diagnostic &diagnostic) {
  DiagnosticRecord record;
  record.severity = getSeverityName(diagnostic.getSeverity()).str();
  record.message = diagnostic.str();
  Location location = diagnostic.getLocation();
  // The first file position in the location (names and call sites wrap one).
  location->walk([&](Location nested) {
    auto file = dyn_cast<FileLineColLoc>(nested);
    if (!file)
      return WalkResult::advance();
    record.file = file.getFilename().str();
    record.line = file.getLine();
    record.column = file.getColumn();
    return WalkResult::interrupt();
  });
  if (!record.file.empty()) {
    record.location = record.file + ":" + std::to_string(record.line) + ":" +
                      std::to_string(record.column);
  } else {
    llvm::raw_string_ostream os(record.location);
    os << location;
  }
  for (Diagnostic &note : diagnostic.getNotes())
    record.notes.push_back(toRecord(note));
  return record;
}

std::string DiagnosticRecord::str() const {
  std::string text = location + ": " + severity + ": " + message;
  for (const DiagnosticRecord &note : notes)
    text += "\n" + note.str();
  return text;
}

DiagnosticCollector::DiagnosticCollector(MLIRContext &context)
    : handler(&context, [this](Diagnostic &diagnostic) {
        records.push_back(toRecord(diagnostic));
        return success();
      }) {}

std::string DiagnosticCollector::str() const {
  std::string text;
  for (const DiagnosticRecord &record : records)
    text += record.str() + "\n";
  return text;
}

void walrus::python::raise(const DiagnosticCollector &collector) {
  std::vector<DiagnosticRecord> errors;
  for (const DiagnosticRecord &record : collector.getRecords())
    if (record.severity == "error")
      errors.push_back(record);
  std::string summary = errors.empty() ? collector.str() : "";
  for (const DiagnosticRecord &error : errors)
    summary += error.str() + "\n";
  throw WalrusError(summary, collector.getRecords());
}

StderrCapture::StderrCapture() {
  llvm::errs().flush();
  std::fflush(stderr);
  file = std::tmpfile();
  if (!file)
    return;
  saved = dup(STDERR_FILENO);
  if (saved < 0 || dup2(fileno(file), STDERR_FILENO) < 0) {
    std::fclose(file);
    file = nullptr;
  }
}

std::string StderrCapture::finish() {
  if (!file)
    return "";
  llvm::errs().flush();
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  std::string text;
  std::rewind(file);
  char buffer[4096];
  while (size_t read = std::fread(buffer, 1, sizeof(buffer), file))
    text.append(buffer, read);
  std::fclose(file);
  file = nullptr;
  return text;
}

StderrCapture::~StderrCapture() { finish(); }
