//===- Banks.cpp - Placement in fixed-size banks (PSUM) -------------------===//

#include "Walrus/Placement/Banks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/MathExtras.h"

using namespace walrus;
using namespace walrus::placement;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
/// A placed node still live: its last point and its bytes in its bank.
struct Open {
  unsigned end = 0;
  int64_t offset = 0, bytes = 0;
};

/// The open nodes of each bank, by offset, as the sweep moves through time.
class BankSweep {
public:
  explicit BankSweep(const BankOptions &options)
      : options(options), open(options.getUsableBanks()) {}

  /// Closes the nodes that end before `point`.
  void closeBefore(unsigned point) {
    for (SmallVector<Open> &bank : open)
      llvm::erase_if(bank, [&](const Open &node) { return node.end < point; });
  }

  /// The lowest offset in `bank` where `bytes` fit clear of its open nodes.
  std::optional<int64_t> findOffset(unsigned bank, int64_t bytes) const {
    int64_t offset = 0;
    for (const Open &node : open[bank]) {
      if (node.offset >= offset + bytes)
        break;
      offset = std::max(offset, node.offset + node.bytes);
    }
    if (offset > options.bankBytes - bytes)
      return std::nullopt;
    return offset;
  }

  bool isEmpty(unsigned bank) const { return open[bank].empty(); }

  void take(unsigned bank, Open node) {
    SmallVector<Open> &nodes = open[bank];
    nodes.insert(llvm::upper_bound(nodes, node,
                                   [](const Open &a, const Open &b) {
                                     return a.offset < b.offset;
                                   }),
                 node);
  }

  /// Bytes, nodes, and nodes larger than half a bank open now.
  struct Load {
    int64_t bytes = 0;
    unsigned nodes = 0, large = 0;
  };
  Load getLoad() const {
    Load load;
    for (ArrayRef<Open> bank : open)
      for (const Open &node : bank) {
        load.bytes += node.bytes;
        ++load.nodes;
        load.large += 2 * node.bytes > options.bankBytes;
      }
    return load;
  }

private:
  const BankOptions &options;
  SmallVector<SmallVector<Open>> open;
};
} // namespace

/// At least how many banks the open nodes and `bytes` more need: their
/// bytes over a bank's, and one each for those larger than half a bank
/// (no two of them share one).
static BankShortage getShortage(const BankSweep &sweep, unsigned node,
                                int64_t bytes, const BankOptions &options) {
  BankSweep::Load load = sweep.getLoad();
  BankShortage shortage;
  shortage.node = node;
  shortage.liveNodes = load.nodes + 1;
  int64_t byBytes = llvm::divideCeil(load.bytes + bytes, options.bankBytes);
  int64_t byLarge = load.large + (2 * bytes > options.bankBytes);
  shortage.banksNeeded =
      unsigned(std::min<int64_t>(std::max(byBytes, byLarge), 1 << 30));
  return shortage;
}

/// The first bank from `nextBank` on (in turn, of `usable`) with room for
/// `bytes`, and the lowest offset there.
static std::optional<std::pair<unsigned, int64_t>>
findInOneBank(const BankSweep &sweep, int64_t bytes, unsigned nextBank,
              unsigned usable) {
  for (unsigned step = 0; step < usable; ++step) {
    unsigned bank = (nextBank + step) % usable;
    if (std::optional<int64_t> offset = sweep.findOffset(bank, bytes))
      return std::make_pair(bank, *offset);
  }
  return std::nullopt;
}

/// For a node larger than a bank: the first run of empty banks from
/// `nextBank` on that holds it whole, starting at a bank's first byte (each
/// bank-sized block of it then lies in one bank).
static std::optional<std::pair<unsigned, int64_t>>
findWholeBanks(const BankSweep &sweep, int64_t bytes, unsigned nextBank,
               const BankOptions &options) {
  unsigned usable = options.getUsableBanks();
  int64_t count = llvm::divideCeil(bytes, options.bankBytes);
  if (count > usable)
    return std::nullopt;
  unsigned starts = usable - unsigned(count) + 1;
  for (unsigned step = 0; step < starts; ++step) {
    unsigned first = (nextBank + step) % starts;
    if (llvm::all_of(llvm::seq<unsigned>(first, first + unsigned(count)),
                     [&](unsigned bank) { return sweep.isEmpty(bank); }))
      return std::make_pair(first, int64_t(0));
  }
  return std::nullopt;
}

/// Takes `node`'s bytes from `offset` in `bank` on, bank by bank.
static void takeBanks(BankSweep &sweep, unsigned bank, int64_t offset,
                      Open node, const BankOptions &options) {
  int64_t left = node.bytes;
  for (; left > 0 && bank < options.getUsableBanks(); ++bank, offset = 0) {
    int64_t here = std::min(left, options.bankBytes - offset);
    sweep.take(bank, {node.end, offset, here});
    left -= here;
  }
}

BankPlacement
walrus::placement::placeInBanks(const Problem &problem,
                                ArrayRef<std::optional<Place>> fixed,
                                const BankOptions &options) {
  ArrayRef<Node> nodes = problem.getNodes();
  unsigned usable = options.getUsableBanks();
  BankPlacement result;
  result.placement.placements.assign(nodes.size(), std::nullopt);
  SmallVector<unsigned> order;
  for (auto [index, node] : llvm::enumerate(nodes)) {
    if (node.live)
      order.push_back(unsigned(index));
    else
      result.placement.placements[index] = Place{0, 0};
  }
  // By start, the larger first, then by index.
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::make_tuple(nodes[a].range.start, -nodes[a].bytes, a) <
           std::make_tuple(nodes[b].range.start, -nodes[b].bytes, b);
  });
  BankSweep sweep(options);
  unsigned nextBank = 0;
  for (unsigned index : order) {
    const Node &node = nodes[index];
    sweep.closeBefore(node.range.start);
    if (fixed[index]) {
      int64_t address = fixed[index]->address;
      unsigned bank = unsigned(address / options.bankBytes);
      if (bank < usable)
        sweep.take(bank,
                   {node.range.end, address % options.bankBytes, node.bytes});
      result.placement.placements[index] = fixed[index];
      continue;
    }
    std::optional<std::pair<unsigned, int64_t>> found =
        node.bytes <= options.bankBytes
            ? findInOneBank(sweep, node.bytes, nextBank, usable)
            : findWholeBanks(sweep, node.bytes, nextBank, options);
    if (!found) {
      result.shortage = getShortage(sweep, index, node.bytes, options);
      return result;
    }
    auto [bank, offset] = *found;
    takeBanks(sweep, bank, offset, {node.range.end, 0, node.bytes}, options);
    result.placement.placements[index] =
        Place{0, int64_t(bank) * options.bankBytes + offset};
    result.placement.peakBytes = std::max<int64_t>(
        result.placement.peakBytes,
        int64_t(bank) * options.bankBytes + offset + node.bytes);
    nextBank = unsigned(
        (bank + llvm::divideCeil(node.bytes, options.bankBytes)) % usable);
  }
  return result;
}
