//===- SourceLimits.cpp - Refusing text the parser cannot take ------------===//

#include "Walrus/Dialect/BIR/IR/SourceLimits.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

using namespace mlir;

LogicalResult walrus::checkSourceNesting(StringRef text, StringRef fileName,
                                         MLIRContext *context) {
  // MLIR bytecode (its magic number first) is read without recursion on
  // brackets; its bytes are not text.
  if (text.starts_with("ML\xEFR"))
    return success();
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
        return emitError(FileLineColLoc::get(context, fileName, line, column))
               << "brackets nested deeper than " << kMaxSourceNesting
               << ": the parser would run out of stack";
    } else if ((c == '}' || c == ')' || c == ']') && depth) {
      --depth;
    }
  }
  return success();
}
