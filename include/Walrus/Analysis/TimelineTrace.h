//===- TimelineTrace.h - A timeline as Chrome trace events ------*- C++ -*-===//
//
// Writes kernels' timelines (Walrus/Analysis/Timeline.h) in the Chrome
// trace-event format that Perfetto, chrome://tracing and speedscope read,
// keeping its rules: complete events never overlap on one thread.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_TIMELINETRACE_H
#define WALRUS_ANALYSIS_TIMELINETRACE_H

#include "Walrus/Analysis/Timeline.h"

#include "llvm/Support/raw_ostream.h"

namespace walrus {

/// Writes `kernels` (each core's timeline computed with its events kept)
/// to `os`: a process per kernel and core, named uniquely; a thread per
/// compute engine, per DMA engine a transfer occupies (the transfer drawn
/// on each), and for transfers' fixed latencies (as many as overlap); one
/// complete event per executed instruction whose args give the
/// instruction, its location, the bytes it reads and writes and the
/// address of each access; flow events along the critical path; and
/// counters of the SBUF and PSUM bytes of the memory locations live
/// (from their first access's start to their last's end). Streamed:
/// memory beyond the timelines grows with the IR, not with the events.
/// The latest time, ns, a trace holds to the nanosecond (its durations
/// are written in picoseconds as 64-bit integers).
constexpr double kMaxTraceNs = 4503599627370496.0; // 2^52

void writeTimelineTrace(llvm::ArrayRef<KernelTimeline> kernels,
                        llvm::raw_ostream &os);

} // namespace walrus

#endif // WALRUS_ANALYSIS_TIMELINETRACE_H
