"""Prints a -lit-test LSP session (messages delimited by `// -----`) of the
messages that overflowed the language server's stack: see lsp-nesting.test."""
import json


def message(value):
    return value if isinstance(value, str) else json.dumps(value)


def document(uri, version, text, method="textDocument/didOpen"):
    if method == "textDocument/didOpen":
        params = {"textDocument": {"uri": uri, "languageId": "mlir",
                                   "version": version, "text": text}}
    else:
        params = {"textDocument": {"uri": uri, "version": version},
                  "contentChanges": [{"text": text}]}
    return {"jsonrpc": "2.0", "method": method, "params": params}


loops = "bir.func @main {\n" + "bir.loop 0 to 2 step 1 {\n" * 6000 + "}\n" * 6000 + "}\n"
parens = ("func.func @f() {\n  %c = arith.constant " + "(" * 20000 + "1" + ")" * 20000 +
          " : i32\n  return\n}\n")
session = [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"processId": 1, "rootUri": "test", "capabilities": {}}},
    "[" * 100000 + "]" * 100000,
    "{not json",
    document("test:///loops.mlir", 1, loops),
    document("test:///parens.mlir", 1, parens),
    document("test:///loops.mlir", 2, "bir.func @main {\n}\n", "textDocument/didChange"),
    {"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover",
     "params": {"textDocument": {"uri": "test:///loops.mlir"},
                "position": {"line": 0, "character": 2}}},
    {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
    {"jsonrpc": "2.0", "method": "exit"},
]
print("\n// -----\n".join(message(m) for m in session))
