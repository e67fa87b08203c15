//===- walrus-lsp-server.cpp - MLIR language server for bir ---------------===//
//
// MLIR's LSP server with the bir dialect and the upstream dialects of host
// modules registered: diagnostics, hover, go-to-definition and outlines for
// .mlir files in any LSP-capable editor.
//
// The server runs on the main thread with pipes for its standard input and
// output; two threads pump the messages between it and the client through
// LspFilter, so that no message or document the server cannot take reaches
// it (LspFilter.h).
//
//===----------------------------------------------------------------------===//

#include "LspFilter.h"
#include "ToolIdentity.h"
#include "Walrus/Walrus.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <mutex>
#include <thread>
#include <unistd.h>

using namespace llvm;

/// Largest message read: a whole document and its JSON.
static constexpr size_t kMaxMessageBytes = size_t(1) << 30;

namespace {
/// Reads the client's messages: Content-Length framed, or (-lit-test)
/// delimited by `// -----` lines, `//` lines being comments.
class MessageReader {
public:
  MessageReader(FILE *in, bool delimited) : in(in), delimited(delimited) {}

  /// The next message; false at the end of the input. A message too long
  /// to hold is read past and returned empty.
  bool next(std::string &message) {
    return delimited ? nextDelimited(message) : nextFramed(message);
  }

private:
  bool readLine(std::string &line) {
    line.clear();
    int c;
    while ((c = fgetc(in)) != EOF && c != '\n')
      if (line.size() < kMaxMessageBytes)
        line.push_back(char(c));
    return c != EOF || !line.empty();
  }

  bool nextDelimited(std::string &message) {
    message.clear();
    std::string line;
    bool any = false;
    while (readLine(line)) {
      any = true;
      StringRef trimmed = StringRef(line).trim();
      if (trimmed.starts_with("//")) {
        if (trimmed == "// -----")
          return true;
        continue;
      }
      if (message.size() + line.size() < kMaxMessageBytes)
        message += line + "\n";
    }
    return any && !StringRef(message).trim().empty();
  }

  bool nextFramed(std::string &message) {
    std::string line;
    size_t length = 0;
    bool sawLength = false;
    while (true) {
      if (!readLine(line))
        return false;
      StringRef header = StringRef(line).rtrim("\r");
      if (header.empty()) {
        if (sawLength)
          break;
        continue;
      }
      if (header.consume_front_insensitive("content-length:"))
        sawLength = !header.trim().getAsInteger(10, length);
    }
    message.clear();
    char chunk[65536];
    while (length) {
      size_t read = fread(chunk, 1, std::min(length, sizeof(chunk)), in);
      if (!read)
        return false;
      if (message.size() + read <= kMaxMessageBytes)
        message.append(chunk, read);
      length -= read;
    }
    return true;
  }

  FILE *in;
  bool delimited;
};
} // namespace

static void writeFramed(FILE *out, StringRef message) {
  std::string header =
      "Content-Length: " + std::to_string(message.size()) + "\r\n\r\n";
  fwrite(header.data(), 1, header.size(), out);
  fwrite(message.data(), 1, message.size(), out);
  fflush(out);
}

int main(int argc, char **argv) {
  walrus::tools::introduceTool();
  mlir::DialectRegistry registry;
  walrus::registerWalrusDialects(registry);
  walrus::registerHostDialects(registry);
  bool litTest = false, delimited = false, introduce = false;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = StringRef(argv[i]).ltrim('-');
    litTest |= arg == "lit-test";
    delimited |= arg == "input-style=delimited";
    introduce |= arg == "h" || arg.starts_with("help") || arg == "version" ||
                 arg.starts_with("print-options");
  }
  delimited |= litTest;
  // Help and version go to the terminal, not through the pipes that carry
  // messages: the server prints them and exits.
  if (introduce)
    return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));

  // The client's stdin and stdout stay with the pumps; the server gets
  // pipes in their place.
  int toServer[2], fromServer[2];
  int clientIn = dup(STDIN_FILENO), clientOut = dup(STDOUT_FILENO);
  if (clientIn < 0 || clientOut < 0 || pipe(toServer) || pipe(fromServer) ||
      dup2(toServer[0], STDIN_FILENO) < 0 ||
      dup2(fromServer[1], STDOUT_FILENO) < 0) {
    perror("walrus-lsp-server: cannot set up the server's pipes");
    return 1;
  }
  close(toServer[0]);
  close(fromServer[1]);
  FILE *input = fdopen(clientIn, "rb"), *output = fdopen(clientOut, "wb");
  FILE *serverIn = fdopen(toServer[1], "wb");
  FILE *serverOut = fdopen(fromServer[0], "rb");
  std::mutex outputMutex;
  walrus::lsp::LspFilter filter(/*pretty=*/litTest);

  std::thread clientPump([&] {
    MessageReader reader(input, delimited);
    std::string message;
    while (reader.next(message)) {
      walrus::lsp::ClientVerdict verdict = filter.filterClientMessage(message);
      if (verdict.reply) {
        std::lock_guard<std::mutex> lock(outputMutex);
        writeFramed(output, *verdict.reply);
      }
      if (!verdict.forward)
        continue;
      if (delimited) {
        fputs(verdict.forward->c_str(), serverIn);
        fputs("\n// -----\n", serverIn);
        fflush(serverIn);
      } else {
        writeFramed(serverIn, *verdict.forward);
      }
    }
    // The end of the client's input is the end of the server's.
    fclose(serverIn);
  });
  std::thread serverPump([&] {
    MessageReader reader(serverOut, /*delimited=*/false);
    std::string message;
    while (reader.next(message)) {
      std::string filtered = filter.filterServerMessage(message);
      std::lock_guard<std::mutex> lock(outputMutex);
      writeFramed(output, filtered);
    }
  });

  bool failed = mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
  // Closing the server's output ends the server pump.
  outs().flush();
  close(STDOUT_FILENO);
  serverPump.join();
  // The server may stop (an `exit`) before the client's input ends.
  clientPump.detach();
  fflush(output);
  return failed;
}
