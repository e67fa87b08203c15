//===- SourceLimits.cpp - Refusing text the parser cannot take ------------===//

#include "Walrus/Dialect/BIR/IR/SourceLimits.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/FileSystem.h"

#include <cstdio>

using namespace mlir;

std::optional<std::pair<unsigned, unsigned>>
walrus::findTooDeepBracket(StringRef text) {
  // MLIR bytecode (its magic number first) is read without recursion on
  // brackets; its bytes are not text.
  if (text.starts_with("ML\xEFR"))
    return std::nullopt;
  unsigned depth = 0, line = 1, column = 0;
  bool inString = false, inComment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      inComment = false;
      continue;
    }
    if (inComment)
      continue;
    if (inString) {
      if (c == '\\')
        ++i, ++column; // the escaped character
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      inComment = true;
    } else if (c == '{' || c == '(' || c == '[') {
      if (++depth > kMaxSourceNesting)
        return std::make_pair(line, column);
    } else if ((c == '}' || c == ')' || c == ']') && depth) {
      --depth;
    }
  }
  return std::nullopt;
}

LogicalResult walrus::checkSourceNesting(StringRef text, StringRef fileName,
                                         MLIRContext *context) {
  std::optional<std::pair<unsigned, unsigned>> at = findTooDeepBracket(text);
  if (!at)
    return success();
  return emitError(
             FileLineColLoc::get(context, fileName, at->first, at->second))
         << "brackets nested deeper than " << kMaxSourceNesting
         << ": the parser would run out of stack";
}

std::unique_ptr<llvm::MemoryBuffer> walrus::readBoundedFile(StringRef path,
                                                            uint64_t maxBytes,
                                                            std::string &error,
                                                            bool isText) {
  auto tooLarge = [&](const Twine &size) {
    error = ("'" + path + "' has " + size + " bytes, past the limit of " +
             Twine(maxBytes) + " (--max-input-bytes)")
                .str();
    return nullptr;
  };
  if (path == "-") {
    // Standard input has no size to check first: read one byte past the
    // limit at most.
    std::string text;
    char chunk[65536];
    while (text.size() <= maxBytes) {
      size_t read = fread(chunk, 1, sizeof(chunk), stdin);
      if (!read)
        break;
      text.append(chunk, read);
    }
    if (text.size() > maxBytes)
      return tooLarge("more than " + Twine(maxBytes));
    return llvm::MemoryBuffer::getMemBufferCopy(text, "<stdin>");
  }
  llvm::sys::fs::file_status status;
  if (std::error_code code = llvm::sys::fs::status(path, status)) {
    error = "cannot open input file '" + path.str() + "': " + code.message();
    return nullptr;
  }
  if (status.type() != llvm::sys::fs::file_type::regular_file) {
    error = "cannot read '" + path.str() +
            "': not a regular file (a device, directory or pipe has no end "
            "to read to)";
    return nullptr;
  }
  if (status.getSize() > maxBytes)
    return tooLarge(Twine(status.getSize()));
  auto file = llvm::MemoryBuffer::getFile(path, isText);
  if (!file) {
    error = "cannot open input file '" + path.str() +
            "': " + file.getError().message();
    return nullptr;
  }
  // The file may have grown since its size was read.
  if ((*file)->getBufferSize() > maxBytes)
    return tooLarge(Twine((*file)->getBufferSize()));
  return std::move(*file);
}
