//===- LspFilter.h - What reaches MLIR's language server ---------*- C++
//-*-===//
//
// MLIR's language server parses every message with LLVM's recursive JSON
// parser and every document with MLIR's recursive parser: a message nested
// 100,000 arrays deep, or a document of 6,000 nested loops, overflows its
// stack. walrus-lsp-server runs the server behind this filter, which
// answers such a message with a JSON-RPC parse error, keeps the server's
// copy of a document within the nesting the parser takes, and reports a
// too-deep document as a diagnostic at its offending bracket.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_TOOLS_LSPFILTER_H
#define WALRUS_TOOLS_LSPFILTER_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace walrus::lsp {

/// Deepest JSON nesting of a message: LSP messages nest a dozen levels.
constexpr unsigned kMaxMessageNesting = 256;

/// What to do with one message from the client.
struct ClientVerdict {
  /// The message to forward to the server, if any.
  std::optional<std::string> forward;
  /// A response to send the client directly, if any.
  std::optional<std::string> reply;
};

class LspFilter {
public:
  explicit LspFilter(bool pretty) : pretty(pretty) {}

  /// Checks a message from the client. A document opened or changed is
  /// forwarded whole (the filter keeps its text); one nested too deep is
  /// forwarded cut before the offending bracket.
  ClientVerdict filterClientMessage(llvm::StringRef json);

  /// A message from the server as the client gets it: diagnostics of a
  /// too-deep document are the nesting error.
  std::string filterServerMessage(llvm::StringRef json);

private:
  std::string onDocument(llvm::StringRef json);

  bool pretty;
  std::mutex mutex;
  /// Every open document's text, as the client has it.
  llvm::StringMap<std::string> documents;
  /// Per document and version too deep to parse, where it nests too deep
  /// (line, column, 0-based as LSP counts). By version: the server's
  /// diagnostics of one version may come after the client sent the next.
  llvm::StringMap<std::map<int64_t, std::pair<unsigned, unsigned>>> tooDeep;
};

} // namespace walrus::lsp

#endif // WALRUS_TOOLS_LSPFILTER_H
