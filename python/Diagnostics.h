//===- Diagnostics.h - MLIR diagnostics as Python data ----------*- C++ -*-===//

#ifndef WALRUS_PYTHON_DIAGNOSTICS_H
#define WALRUS_PYTHON_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace walrus::python {

/// One diagnostic, its location split out, with its notes.
struct DiagnosticRecord {
  std::string severity; // "error", "warning", "remark", "note"
  std::string location; // "file:line:col", or MLIR's form of the location
  std::string file;     // empty when the location has no file
  int line = 0, column = 0;
  std::string message;
  std::vector<DiagnosticRecord> notes;

  /// "location: severity: message", then each note on a line of its own.
  std::string str() const;
};

/// Collects every diagnostic emitted on a context while it lives.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext &context);

  const std::vector<DiagnosticRecord> &getRecords() const { return records; }
  std::string str() const;

private:
  std::vector<DiagnosticRecord> records;
  mlir::ScopedDiagnosticHandler handler;
};

/// What the package raises as walrus.Error: a summary and the diagnostics.
struct WalrusError : std::runtime_error {
  WalrusError(const std::string &summary,
              std::vector<DiagnosticRecord> diagnostics = {})
      : std::runtime_error(summary), diagnostics(std::move(diagnostics)) {}
  std::vector<DiagnosticRecord> diagnostics;
};

/// Raises the collected diagnostics as a WalrusError.
[[noreturn]] void raise(const DiagnosticCollector &collector);

/// Captures what LLVM writes to stderr (fd 2) while it lives: the reason
/// LLVM's option parser rejected a pass option goes there, nowhere else.
class StderrCapture {
public:
  StderrCapture();
  ~StderrCapture();
  /// Stops capturing and returns what was written.
  std::string finish();

private:
  int saved = -1;
  std::FILE *file = nullptr;
};

} // namespace walrus::python

#endif // WALRUS_PYTHON_DIAGNOSTICS_H
