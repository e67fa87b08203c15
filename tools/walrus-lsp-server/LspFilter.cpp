//===- LspFilter.cpp - What reaches MLIR's language server ----------------===//

#include "LspFilter.h"

#include "Walrus/Dialect/BIR/IR/SourceLimits.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

using namespace llvm;
using namespace walrus::lsp;

/// Whether `json` nests arrays and objects deeper than `limit` (a scan
/// that does not recurse, outside strings).
static bool nestsDeeperThan(StringRef json, unsigned limit) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return true;
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return false;
}

static std::string print(const json::Value &value, bool pretty) {
  std::string text;
  raw_string_ostream os(text);
  if (pretty)
    os << formatv("{0:2}", value);
  else
    os << value;
  return text;
}

/// A JSON-RPC parse error (-32700), which answers no request id.
static std::string parseError(const Twine &message, bool pretty) {
  json::Object error{{"code", -32700}, {"message", message.str()}};
  return print(json::Object{{"jsonrpc", "2.0"},
                            {"id", nullptr},
                            {"error", std::move(error)}},
               pretty);
}

ClientVerdict LspFilter::filterClientMessage(StringRef json) {
  if (nestsDeeperThan(json, kMaxMessageNesting))
    return {std::nullopt,
            parseError("message nested deeper than " +
                           Twine(kMaxMessageNesting) + " levels: not parsed",
                       pretty)};
  Expected<json::Value> value = json::parse(json);
  if (!value) {
    std::string why = toString(value.takeError());
    return {std::nullopt, parseError("invalid JSON: " + why, pretty)};
  }
  const json::Object *message = value->getAsObject();
  std::optional<StringRef> method =
      message ? message->getString("method") : std::nullopt;
  if (method == "textDocument/didOpen" || method == "textDocument/didChange")
    return {onDocument(json), std::nullopt};
  if (method == "textDocument/didClose") {
    std::lock_guard<std::mutex> lock(mutex);
    if (const json::Object *params = message->getObject("params"))
      if (const json::Object *document = params->getObject("textDocument"))
        if (std::optional<StringRef> uri = document->getString("uri")) {
          documents.erase(*uri);
          tooDeep.erase(*uri);
        }
  }
  return {json.str(), std::nullopt};
}

/// The server gets every open or change as the whole text (the filter
/// applies incremental changes itself, as the server would), cut before
/// the first bracket the parser cannot take.
std::string LspFilter::onDocument(StringRef json) {
  json::Value value = cantFail(json::parse(json));
  json::Object &message = *value.getAsObject();
  json::Object *params = message.getObject("params");
  json::Object *document = params ? params->getObject("textDocument") : nullptr;
  std::optional<StringRef> uri =
      document ? document->getString("uri") : std::nullopt;
  if (!uri)
    return json.str(); // the server says what is wrong with it
  std::lock_guard<std::mutex> lock(mutex);
  std::string &text = documents[*uri];
  if (std::optional<StringRef> opened = document->getString("text")) {
    text = opened->str();
  } else if (json::Array *changes = params->getArray("contentChanges")) {
    std::vector<llvm::lsp::TextDocumentContentChangeEvent> events;
    json::Path::Root root;
    for (json::Value &change : *changes) {
      events.emplace_back();
      if (!fromJSON(change, events.back(), json::Path(root)))
        return json.str();
    }
    if (failed(
            llvm::lsp::TextDocumentContentChangeEvent::applyTo(events, text)))
      return json.str();
  }
  std::string forwarded = text;
  int64_t version = document->getInteger("version").value_or(0);
  if (std::optional<std::pair<unsigned, unsigned>> at =
          walrus::findTooDeepBracket(text)) {
    auto &versions = tooDeep[*uri];
    versions[version] = {at->first - 1, at->second - 1};
    // Diagnostics of versions long gone never come.
    while (versions.size() > 16)
      versions.erase(versions.begin());
    // Cut at the offending line: the server keeps a document it can parse.
    size_t offset = 0;
    for (unsigned line = 1; line < at->first; ++line)
      offset = text.find('\n', offset) + 1;
    forwarded = text.substr(0, offset + at->second - 1);
  }
  if (document->getString("text"))
    (*document)["text"] = forwarded;
  else
    (*params)["contentChanges"] =
        json::Array{json::Object{{"text", forwarded}}};
  return print(value, /*pretty=*/false);
}

std::string LspFilter::filterServerMessage(StringRef json) {
  if (!json.contains("textDocument/publishDiagnostics"))
    return json.str();
  Expected<json::Value> value = json::parse(json);
  if (!value) {
    consumeError(value.takeError());
    return json.str();
  }
  json::Object *params = value->getAsObject()
                             ? value->getAsObject()->getObject("params")
                             : nullptr;
  std::optional<StringRef> uri =
      params ? params->getString("uri") : std::nullopt;
  int64_t version = params ? params->getInteger("version").value_or(0) : 0;
  std::lock_guard<std::mutex> lock(mutex);
  auto deep = uri ? tooDeep.find(*uri) : tooDeep.end();
  if (deep == tooDeep.end() || !deep->second.count(version))
    return json.str();
  auto [line, column] = deep->second[version];
  llvm::lsp::Diagnostic diagnostic;
  diagnostic.range = llvm::lsp::Range(llvm::lsp::Position(line, column),
                                      llvm::lsp::Position(line, column + 1));
  diagnostic.severity = llvm::lsp::DiagnosticSeverity::Error;
  diagnostic.source = "walrus";
  diagnostic.message =
      ("brackets nested deeper than " + Twine(kMaxSourceNesting) +
       ": the parser would run out of stack")
          .str();
  (*params)["diagnostics"] = json::Array{toJSON(diagnostic)};
  return print(*value, pretty);
}
