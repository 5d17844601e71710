// SPDX-License-Identifier: Apache-2.0
// Number formatting for vbm-bench's tables (see BenchReport.h).
#include "BenchReport.h"

#include "GitCommit.h" // VBM_GIT_COMMIT, written at build time

#include <cstdio>

namespace bench {

const char* gitCommit() { return VBM_GIT_COMMIT; }

std::string fmt(double v, int prec)
{
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", prec, v);
    return b;
}

std::string fmtRange(const vbm::Summary& s, int prec)
{
    return fmt(s.median, prec) + " (" + fmt(s.min, prec) + "-" + fmt(s.max, prec) + ")";
}

std::string jsonEscape(const std::string& s)
{
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (c == '\n')
            o += "\\n";
        else
            o += c;
    }
    return o;
}

} // namespace bench
