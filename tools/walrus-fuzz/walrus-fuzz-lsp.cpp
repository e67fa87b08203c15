//===- walrus-fuzz-lsp.cpp - libFuzzer target over LSP message streams ----===//
//
// A stream of JSON-RPC messages from an editor, `// -----` between them as
// walrus-lsp-server -lit-test reads them: each goes through the server's
// filter (LspFilter) as walrus-lsp-server sends it, and what the filter
// forwards is parsed as MLIR's server parses it (the JSON, then the text of
// every document opened or changed, with the dialects the server has).
// Diagnostics are expected; nothing may crash or overflow the stack.
//
//===----------------------------------------------------------------------===//

#include "LspFilter.h"
#include "Walrus/Walrus.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/JSON.h"

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

/// Parses the text of a document message the filter forwarded.
static void parseDocument(llvm::StringRef forwarded) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(forwarded);
  if (!value) {
    llvm::consumeError(value.takeError());
    return;
  }
  const llvm::json::Object *params =
      value->getAsObject() ? value->getAsObject()->getObject("params")
                           : nullptr;
  if (!params)
    return;
  std::optional<llvm::StringRef> text;
  if (const llvm::json::Object *document = params->getObject("textDocument"))
    text = document->getString("text");
  if (const llvm::json::Array *changes = params->getArray("contentChanges"))
    if (!changes->empty() && changes->front().getAsObject())
      text = changes->front().getAsObject()->getString("text");
  if (!text)
    return;
  Block block;
  ParserConfig config(getContext());
  (void)parseSourceString(*text, &block, config);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ScopedDiagnosticHandler silence(getContext(),
                                  [](Diagnostic &) { return success(); });
  walrus::lsp::LspFilter filter(/*pretty=*/false);
  llvm::StringRef stream(reinterpret_cast<const char *>(data), size);
  llvm::SmallVector<llvm::StringRef> messages;
  stream.split(messages, "// -----");
  for (llvm::StringRef message : messages) {
    walrus::lsp::ClientVerdict verdict = filter.filterClientMessage(message);
    if (verdict.forward)
      parseDocument(*verdict.forward);
  }
  // The server's diagnostics of every document pass back through it.
  (void)filter.filterServerMessage(
      R"({"jsonrpc":"2.0","method":"textDocument/publishDiagnostics",)"
      R"("params":{"uri":"test:///a.mlir","version":1,"diagnostics":[]}})");
  return 0;
}
