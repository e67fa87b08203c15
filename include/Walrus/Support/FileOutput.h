//===- FileOutput.h - Files written with every error reported ---*- C++ -*-===//
//
// A raw_fd_ostream that fails to write (a full disk, a closed pipe) ends
// the process with "LLVM ERROR: IO failure on output stream" when it is
// destroyed. Every file Walrus writes goes through writeFile instead: the
// stream is closed and its error taken, so that the caller reports it at
// its op or pass and exits with an error.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_SUPPORT_FILEOUTPUT_H
#define WALRUS_SUPPORT_FILEOUTPUT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace walrus {

/// The error `stream` met, cleared so that destroying it does not abort.
inline std::error_code takeError(llvm::raw_fd_ostream &stream) {
  stream.flush();
  std::error_code code = stream.error();
  stream.clear_error();
  return code;
}

/// Writes the file at `path` with `write`; on failure, `error` says
/// "cannot write 'PATH': REASON".
inline llvm::LogicalResult
writeFile(llvm::StringRef path, llvm::sys::fs::OpenFlags flags,
          llvm::function_ref<void(llvm::raw_ostream &)> write,
          std::string &error) {
  std::error_code code;
  llvm::raw_fd_ostream stream(path, code, flags);
  if (!code) {
    write(stream);
    stream.close();
    code = takeError(stream);
  }
  if (!code)
    return llvm::success();
  error = ("cannot write '" + path + "': " + code.message()).str();
  return llvm::failure();
}

} // namespace walrus

#endif // WALRUS_SUPPORT_FILEOUTPUT_H
