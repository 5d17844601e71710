// SPDX-License-Identifier: Apache-2.0
// Checks on a mesh file's bytes before assimp reads them (MeshFileChecks.h).
#include "scene/MeshFileChecks.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>

namespace vbm {

namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/// Whether `text` holds `word`, in any case.
bool holdsNoCase(std::string_view text, std::string_view word)
{
    const auto same = [](char a, char b) { return std::tolower(uint8_t(a)) == std::tolower(uint8_t(b)); };
    return std::search(text.begin(), text.end(), word.begin(), word.end(), same) != text.end();
}

/// PLY: without an end_header line assimp's reader rereads the header's last line forever; an
/// element count larger than the file (each element takes a byte at least) makes it allocate
/// for them all first; an element declared twice (two `element vertex` lines) makes it size
/// its arrays by the first and fill them from both, writing past their end.
std::string refusedPly(std::string_view bytes)
{
    std::set<std::string_view> elements;
    for (size_t begin = 0; begin < bytes.size();) {
        size_t end = bytes.find_first_of("\r\n", begin);
        if (end == bytes.npos) end = bytes.size();
        std::string_view line = bytes.substr(begin, end - begin);
        while (!line.empty() && space(line.front()))
            line.remove_prefix(1);
        if (line.substr(0, 10) == "end_header" && (line.size() == 10 || space(line[10]))) return "";
        if (line.substr(0, 8) == "element ") {
            std::string_view name = line.substr(8);
            while (!name.empty() && space(name.front()))
                name.remove_prefix(1);
            name = name.substr(0, std::min(name.find_first_of(" \t"), name.size()));
            if (!elements.insert(name).second)
                return "a PLY header declaring element '" + std::string(name) + "' twice (damaged)";
            const size_t at = line.find_last_of(" \t");
            const double count = std::strtod(std::string(line.substr(at + 1)).c_str(), nullptr);
            if (count > double(bytes.size()))
                return "a PLY header declaring more elements (" + std::string(line.substr(8)) + ") than its " +
                       std::to_string(bytes.size()) + " bytes can hold (damaged)";
        }
        begin = end + 1;
    }
    return "a PLY file whose header has no 'end_header' (truncated or damaged)";
}

/// The value of attribute `name` in the XML start tag `tag`, or "" when it has none.
std::string_view attribute(std::string_view tag, std::string_view name)
{
    for (size_t at = tag.find(name); at != tag.npos; at = tag.find(name, at + 1)) {
        size_t i = at + name.size();
        if (!space(tag[at - 1])) continue;
        while (i < tag.size() && space(tag[i]))
            ++i;
        if (i >= tag.size() || tag[i] != '=') continue;
        ++i;
        while (i < tag.size() && space(tag[i]))
            ++i;
        if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) continue;
        const size_t close = tag.find(tag[i], i + 1);
        if (close == tag.npos) return "";
        return tag.substr(i + 1, close - i - 1);
    }
    return "";
}

/// A whole-number attribute as assimp's XML parser (pugixml) reads it: leading spaces, a sign,
/// decimal or 0x hex digits up to the first other character (none: 0); a negative number wraps
/// to a huge unsigned one. `otherwise` when the attribute is absent.
double wholeNumber(std::string_view text, double otherwise)
{
    if (text.empty()) return otherwise;
    size_t i = 0;
    while (i < text.size() && space(text[i]))
        ++i;
    const bool negative = i < text.size() && text[i] == '-';
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    const bool hex = i + 1 < text.size() && text[i] == '0' && (text[i + 1] | ' ') == 'x';
    double value = 0;
    for (i += hex ? 2 : 0; i < text.size(); ++i) {
        const char c = char(std::tolower(uint8_t(text[i])));
        const int digit = std::isdigit(uint8_t(c)) ? c - '0' : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (digit < 0) break;
        value = value * (hex ? 16 : 10) + digit;
    }
    return negative && value > 0 ? 4294967296.0 : value;
}

/// Collada: every accessor must stay inside the array it reads. assimp sizes an array by its
/// `count` and reads an accessor's `offset + count * stride` values from it unchecked: an
/// array of count 0 read through an accessor of 8 points was a null dereference.
std::string refusedColladaAccessor(std::string_view bytes)
{
    std::map<std::string_view, double> arrayCount; // by id
    for (size_t at = bytes.find("_array"); at != bytes.npos; at = bytes.find("_array", at + 6)) {
        const size_t open = bytes.rfind('<', at), close = bytes.find('>', at);
        if (open == bytes.npos || close == bytes.npos ||
            bytes.substr(open + 1, at - open - 1).find_first_of(" \t\r\n</>") != std::string_view::npos)
            continue; // not the name of a start tag (<float_array, <int_array, <Name_array, ...)
        const std::string_view tag = bytes.substr(open, close - open);
        if (const std::string_view id = attribute(tag, "id"); !id.empty())
            arrayCount[id] = wholeNumber(attribute(tag, "count"), 0);
    }
    for (size_t at = bytes.find("<accessor"); at != bytes.npos; at = bytes.find("<accessor", at + 9)) {
        const size_t close = bytes.find('>', at);
        if (close == bytes.npos) break;
        const std::string_view tag = bytes.substr(at, close - at);
        std::string_view source = attribute(tag, "source");
        if (!source.empty() && source.front() == '#') source.remove_prefix(1);
        const auto array = arrayCount.find(source);
        if (array == arrayCount.end()) continue; // assimp refuses an unknown source itself
        const double read =
            wholeNumber(attribute(tag, "offset"), 0) +
            wholeNumber(attribute(tag, "count"), 0) * std::max(wholeNumber(attribute(tag, "stride"), 1), 1.0);
        if (read > array->second)
            return "a Collada accessor reading " + std::to_string(uint64_t(read)) + " values of array '" +
                   std::string(source) + "', which holds " + std::to_string(uint64_t(array->second)) + " (damaged)";
    }
    return "";
}

/// Collada: a <p> (a primitive's point indices) holding anything but digits, signs and
/// spaces makes assimp's reader add index 0 forever without moving on, until memory runs out.
/// (Also refused: a <p> holding a comment or CDATA, which no exporter writes.)
std::string refusedColladaIndices(std::string_view bytes)
{
    const auto index = [&](char c) { return std::isdigit(uint8_t(c)) || space(c) || c == '-' || c == '+'; };
    for (size_t at = bytes.find("<p"); at != bytes.npos; at = bytes.find("<p", at + 2)) {
        if (at + 2 < bytes.size() && !space(bytes[at + 2]) && bytes[at + 2] != '>') continue; // <param>, <p/>
        const size_t open = bytes.find('>', at), close = bytes.find('<', open);
        if (open == bytes.npos || close == bytes.npos) break;
        const std::string_view indices = bytes.substr(open + 1, close - open - 1);
        if (bytes.substr(close, 3) != "</p" || !std::all_of(indices.begin(), indices.end(), index))
            return "a Collada <p> (point indices) holding something other than whole numbers";
    }
    return "";
}

} // namespace

std::string refusedBeforeReading(std::string_view bytes, std::string extension, bool guessed)
{
    for (char& c : extension)
        c = char(std::tolower(uint8_t(c)));
    // PLY's reader takes a file starting "ply", in any case
    if ((extension == "ply" || guessed) && bytes.size() >= 3 && holdsNoCase(bytes.substr(0, 3), "ply"))
        return refusedPly(bytes);
    if ((extension == "dae" || extension == "xml" || guessed) && holdsNoCase(bytes.substr(0, 4096), "<collada")) {
        if (std::string why = refusedColladaIndices(bytes); !why.empty()) return why;
        return refusedColladaAccessor(bytes);
    }
    return "";
}

} // namespace vbm
