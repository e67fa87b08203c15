//===- Banks.h - Placement in fixed-size banks (PSUM) ----------*- C++ -*-===//
//
// PSUM is cut into banks (8 of 2 KiB per partition on trn1-trn3), and a
// tensor-engine accumulation tile never crosses a bank. placeInBanks places
// a Problem's nodes in the usable banks, each inside one, by a sweep over
// live-range starts: first fit within a bank, trying the banks in turn from
// the one after the last bank used, so that consecutive accumulation groups
// land in different banks and one group's copy-out overlaps the next one's
// matmults. docs/PsumAlloc.md.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_BANKS_H
#define WALRUS_PLACEMENT_BANKS_H

#include "Walrus/Placement/Problem.h"

namespace walrus::placement {

/// The banks a placement may use: `banks` of `bankBytes` per partition, of
/// which the last `reserved` are not used.
struct BankOptions {
  int64_t bankBytes = 2048;
  unsigned banks = 8;
  unsigned reserved = 0;

  unsigned getUsableBanks() const {
    return reserved < banks ? banks - reserved : 0;
  }
};

/// A node no usable bank had room for, and the banks the nodes live at its
/// start (it among them) need at least.
struct BankShortage {
  unsigned node = 0;
  unsigned banksNeeded = 0;
  /// The nodes live at its start, it among them.
  unsigned liveNodes = 0;
};

struct BankPlacement {
  /// Per node its place (address = bank * bankBytes + offset), when every
  /// node found one. A node that is never live takes the first usable
  /// bank's first byte (it holds nothing).
  Placement placement;
  /// The first node that found no room, if one did not.
  std::optional<BankShortage> shortage;
};

/// Places every node of `problem` inside one usable bank, no two co-live
/// nodes on a common byte, those with a `fixed` place where they are. A
/// node larger than a bank (a tensor of several accumulation tiles) takes
/// whole banks in a row from a bank's first byte on, so each bank-sized
/// block of it lies in one bank.
BankPlacement placeInBanks(const Problem &problem,
                           llvm::ArrayRef<std::optional<Place>> fixed,
                           const BankOptions &options);

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_BANKS_H
