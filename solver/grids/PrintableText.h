// SPDX-License-Identifier: Apache-2.0
// Text from a file or a command line made safe to print in a one-line message: a scene line
// or a grid name may hold binary junk, which must not reach the terminal raw.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace vbm {

/// `bytes` with valid UTF-8 and printable ASCII as they are, and every other byte (control
/// bytes, DEL, a backslash, bytes that are not UTF-8) as \xNN; at most maxBytes bytes of input,
/// then "...".
inline std::string printableText(std::string_view bytes, size_t maxBytes = std::string_view::npos)
{
    static const char* hex = "0123456789abcdef";
    std::string out;
    const size_t n = bytes.size() < maxBytes ? bytes.size() : maxBytes;
    for (size_t i = 0; i < n; ++i) {
        const unsigned char c = static_cast<unsigned char>(bytes[i]);
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        for (size_t k = 1; k < len; ++k)
            if (i + k >= n || (static_cast<unsigned char>(bytes[i + k]) >> 6) != 2) len = 0;
        if (len > 1) {
            out.append(bytes.substr(i, len)), i += len - 1;
        } else if (len == 1 && c >= 0x20 && c != 0x7f && c != '\\') {
            out += char(c);
        } else {
            out += "\\x", out += hex[c >> 4], out += hex[c & 15];
        }
    }
    if (bytes.size() > n) out += "...";
    return out;
}

} // namespace vbm
