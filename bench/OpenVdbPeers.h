// SPDX-License-Identifier: Apache-2.0
// vbm-bench --backend cpu's peers from OpenVDB 10 (Debian's libopenvdb-dev): the same grid and sidecar
// channels as one FloatGrid per channel, and four ways a user of OpenVDB computes a stencil on
// them, on all cores (TBB). Each peer's output comes back in our layout (C floats per value
// index) with the check that applies to it. OpenVDB stays inside OpenVdbPeers.cpp.
#pragma once

#include "vbm/VoxelBlockManager.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bench {

/// How a peer's output compared with ours.
struct PeerCheck {
    std::string rule;          ///< what was compared, and how
    uint64_t compared = 0;     ///< outputs compared
    uint64_t mismatches = 0;   ///< outputs outside the rule
    double maxRelativeError = 0;
    bool ok() const { return mismatches == 0 && compared > 0; }
};

class OpenVdbPeers {
public:
    /// The four peers, in the order run() and check() number them; these are the JSON's names.
    static const std::vector<std::string>& names();
    /// "27-tap box" or "7-pt cross", as our rows say.
    static const char* shape(int peer);
    /// False when this vbm-bench was built without OpenVDB (then nothing else may be called).
    static bool available();
    /// "OpenVDB 10.0.1" (the headers this bench was built with), or "" without OpenVDB.
    static std::string version();

    /// One FloatGrid per channel of `sidecar` (C floats per value index of `grid`), background 0.
    OpenVdbPeers(const vbm::IndexGrid* grid, const std::vector<float>& sidecar, int channels);
    ~OpenVdbPeers();
    OpenVdbPeers(const OpenVdbPeers&) = delete;
    OpenVdbPeers& operator=(const OpenVdbPeers&) = delete;

    /// Untimed set-up before each timed run (the in-place filter gets its input back).
    void prepare(int peer);
    /// The timed work of peer `peer`.
    void run(int peer);
    /// Peer `peer`'s last output against ours: `crossSum` and `boxSum` are our 7-tap and 27-tap
    /// sums (C floats per value index). Accessor peers sum in our tap order: bitwise. The tools
    /// compute other expressions of the same taps: within a relative tolerance.
    PeerCheck check(int peer, const std::vector<float>& crossSum, const std::vector<float>& boxSum) const;

private:
    struct Impl;
    std::unique_ptr<Impl> mImpl;
};

} // namespace bench
