//===- TimelineSpace.h - When the bytes of an address space were touched --===//
//
// The timeline's dependency bookkeeping: for each byte (or element) of an
// address space, when it was last written and read and by which
// instruction. A lazy segment tree over the addresses, grown on demand,
// makes each access O(log extent) however fragmented earlier accesses
// left the space: a read of a whole tensor after thousands of strided
// writes to it costs what a read after one write does.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_LIB_ANALYSIS_TIMELINESPACE_H
#define WALRUS_LIB_ANALYSIS_TIMELINESPACE_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace walrus::timeline {

/// A time and the instruction whose end it is (-1 for none).
struct Cause {
  double time = 0;
  int64_t instruction = -1;
  void raise(double t, int64_t id) {
    if (t > time)
      time = t, instruction = id;
  }
  void raise(const Cause &other) { raise(other.time, other.instruction); }
};

/// Nodes the spaces of one estimate may still create.
struct NodeBudget {
  int64_t left;
};

/// One address space's last writes and reads. An instruction writes a
/// range only after every earlier access of it has finished (the timeline
/// waits for them), so a write replaces what the range held; a read
/// raises the range's last read.
class Space {
public:
  /// The budget this space's nodes come out of (none: unbounded).
  void setBudget(NodeBudget *shared) { budget = shared; }

  /// When an access of [lo, hi) may start: after the last write of any of
  /// its bytes, and for a write after the last read too.
  Cause ready(int64_t lo, int64_t hi, bool write) {
    Cause when;
    if (clip(lo, hi))
      query(root, 0, extent, lo, hi, write, when);
    return when;
  }
  /// Records an access of [lo, hi) by instruction `id` finishing at
  /// `finish`.
  void record(int64_t lo, int64_t hi, bool write, double finish, int64_t id) {
    if (!clip(lo, hi))
      return;
    while (extent < hi)
      grow();
    update(root, 0, extent, lo, hi, write, Cause{finish, id});
  }

private:
  /// A subtree's latest write and read (the first address's on ties),
  /// and what is still to be applied to its children.
  struct Node {
    Cause written, read;
    bool pendingWrite = false;
    Cause pendingRead;
    int32_t child[2] = {-1, -1};
  };

  /// Addresses past 2^62 share the last one (no tensor is that large).
  bool clip(int64_t &lo, int64_t &hi) const {
    constexpr int64_t kLimit = int64_t(1) << 62;
    lo = std::clamp<int64_t>(lo, 0, kLimit - 1);
    hi = std::clamp<int64_t>(hi, 0, kLimit);
    return lo < hi;
  }
  int32_t make() {
    if (budget)
      --budget->left;
    nodes.emplace_back();
    return int32_t(nodes.size() - 1);
  }
  /// Doubles the covered extent: the old tree becomes the left half.
  void grow() {
    if (root < 0) {
      root = make();
      extent = 1;
      return;
    }
    int32_t top = make();
    nodes[top].written = nodes[root].written;
    nodes[top].read = nodes[root].read;
    nodes[top].child[0] = root;
    root = top;
    extent *= 2;
  }
  void applyWrite(Node &node, Cause at) {
    node.written = node.read = at;
    node.pendingWrite = true;
    node.pendingRead = Cause{};
  }
  void applyRead(Node &node, Cause at) {
    if (at.time >= node.read.time)
      node.read = at;
    if (at.time >= node.pendingRead.time)
      node.pendingRead = at;
  }
  /// Hands a node's pending work to its children, creating them. While a
  /// write is pending the node's `written` is that write.
  void push(int32_t index) {
    for (int side = 0; side < 2; ++side)
      if (nodes[index].child[side] < 0) {
        int32_t created = make();
        nodes[index].child[side] = created;
      }
    Node &node = nodes[index];
    for (int32_t child : node.child) {
      if (node.pendingWrite)
        applyWrite(nodes[child], node.written);
      if (node.pendingRead.instruction >= 0)
        applyRead(nodes[child], node.pendingRead);
    }
    node.pendingWrite = false;
    node.pendingRead = Cause{};
  }
  void pull(Node &node) {
    const Node &left = nodes[node.child[0]], &right = nodes[node.child[1]];
    node.written = left.written;
    node.written.raise(right.written);
    node.read = left.read;
    node.read.raise(right.read);
  }
  void query(int32_t index, int64_t begin, int64_t end, int64_t lo, int64_t hi,
             bool write, Cause &when) {
    if (index < 0 || hi <= begin || end <= lo)
      return;
    Node &node = nodes[index];
    // A node without children holds the same for all its addresses.
    if ((lo <= begin && end <= hi) || node.child[0] < 0) {
      when.raise(node.written);
      if (write)
        when.raise(node.read);
      return;
    }
    if (node.pendingWrite || node.pendingRead.instruction >= 0)
      push(index);
    int64_t middle = begin + (end - begin) / 2;
    query(nodes[index].child[0], begin, middle, lo, hi, write, when);
    query(nodes[index].child[1], middle, end, lo, hi, write, when);
  }
  void update(int32_t index, int64_t begin, int64_t end, int64_t lo, int64_t hi,
              bool write, Cause at) {
    if (hi <= begin || end <= lo)
      return;
    // Past the budget a node that would need new children takes the
    // access whole: more bytes depend on it than touched it (a later
    // start, never a missed dependency), and memory stays bounded.
    bool atLimit = budget && budget->left < 2 &&
                   (nodes[index].child[0] < 0 || nodes[index].child[1] < 0);
    if ((lo <= begin && end <= hi) || atLimit) {
      write ? applyWrite(nodes[index], at) : applyRead(nodes[index], at);
      return;
    }
    push(index);
    int64_t middle = begin + (end - begin) / 2;
    update(nodes[index].child[0], begin, middle, lo, hi, write, at);
    update(nodes[index].child[1], middle, end, lo, hi, write, at);
    pull(nodes[index]);
  }

  NodeBudget *budget = nullptr;
  std::vector<Node> nodes;
  int32_t root = -1;
  int64_t extent = 0;
};

} // namespace walrus::timeline

#endif // WALRUS_LIB_ANALYSIS_TIMELINESPACE_H
