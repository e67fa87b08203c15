//===- walrus-fuzz-lsp.cpp - libFuzzer target over LSP message streams ----===//
//
// A stream of JSON-RPC messages from an editor, `// -----` between them as
// walrus-lsp-server -lit-test reads them: each goes through the server's
// filter (LspFilter) as walrus-lsp-server sends it, and what the filter
// forwards is applied as MLIR's server applies it (a document opened, or
// edited by the ranges a change replaces) and the document parsed with the
// dialects the server has.
// Diagnostics are expected; nothing may crash or overflow the stack.
//
//===----------------------------------------------------------------------===//

#include "LspFilter.h"
#include "Walrus/Walrus.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

using namespace mlir;

static MLIRContext *getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    walrus::registerWalrusDialects(registry);
    walrus::registerHostDialects(registry);
    auto *created = new MLIRContext(registry);
    created->loadAllAvailableDialects();
    return created;
  }();
  return context;
}

/// Applies a document message the filter forwarded to `documents` (by
/// URI), as the server does, and parses the document it leaves.
static void applyDocumentMessage(llvm::StringRef forwarded,
                                 llvm::StringMap<std::string> &documents) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(forwarded);
  if (!value) {
    llvm::consumeError(value.takeError());
    return;
  }
  const llvm::json::Object *message = value->getAsObject();
  const llvm::json::Object *params =
      message ? message->getObject("params") : nullptr;
  const llvm::json::Object *document =
      params ? params->getObject("textDocument") : nullptr;
  std::optional<llvm::StringRef> method =
      message ? message->getString("method") : std::nullopt;
  std::optional<llvm::StringRef> uri =
      document ? document->getString("uri") : std::nullopt;
  if (!method || !uri)
    return;
  std::string &text = documents[*uri];
  if (*method == "textDocument/didOpen") {
    std::optional<llvm::StringRef> opened = document->getString("text");
    if (!opened)
      return;
    text = opened->str();
  } else if (*method == "textDocument/didChange") {
    const llvm::json::Array *changes = params->getArray("contentChanges");
    if (!changes)
      return;
    std::vector<llvm::lsp::TextDocumentContentChangeEvent> edits(
        changes->size());
    llvm::json::Path::Root root;
    for (auto [change, edit] : llvm::zip(*changes, edits))
      if (!llvm::lsp::fromJSON(change, edit, root))
        return;
    if (failed(llvm::lsp::TextDocumentContentChangeEvent::applyTo(edits, text)))
      return;
  } else {
    return;
  }
  Block block;
  ParserConfig config(getContext());
  (void)parseSourceString(text, &block, config);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ScopedDiagnosticHandler silence(getContext(),
                                  [](Diagnostic &) { return success(); });
  walrus::lsp::LspFilter filter(/*pretty=*/false);
  llvm::StringRef stream(reinterpret_cast<const char *>(data), size);
  llvm::SmallVector<llvm::StringRef> messages;
  stream.split(messages, "// -----");
  llvm::StringMap<std::string> documents;
  for (llvm::StringRef message : messages) {
    walrus::lsp::ClientVerdict verdict = filter.filterClientMessage(message);
    if (verdict.forward)
      applyDocumentMessage(*verdict.forward, documents);
  }
  // The server's diagnostics of every document pass back through it.
  (void)filter.filterServerMessage(
      R"({"jsonrpc":"2.0","method":"textDocument/publishDiagnostics",)"
      R"("params":{"uri":"test:///a.mlir","version":1,"diagnostics":[]}})");
  return 0;
}
