// SPDX-License-Identifier: Apache-2.0
// A PNG read back as RGBA8, with the region statistics the picture tests check.
#pragma once

#include <png.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <vector>

struct Image {
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> rgba;

    const uint8_t* at(uint32_t x, uint32_t y) const { return &rgba[(size_t(y) * width + x) * 4]; }
    double luminance(uint32_t x, uint32_t y) const
    {
        const uint8_t* p = at(x, y);
        return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
    }
    /// Mean luminance over a rectangle given in fractions of the image.
    double mean(double x0, double y0, double x1, double y1) const
    {
        double s = 0;
        int n = 0;
        for (uint32_t y = uint32_t(y0 * height); y < uint32_t(y1 * height); ++y)
            for (uint32_t x = uint32_t(x0 * width); x < uint32_t(x1 * width); ++x)
                s += luminance(x, y), ++n;
        return n ? s / n : 0;
    }
    /// Brightest luminance over a rectangle given in fractions of the image.
    double brightest(double x0, double y0, double x1, double y1) const
    {
        double m = 0;
        for (uint32_t y = uint32_t(y0 * height); y < uint32_t(y1 * height); ++y)
            for (uint32_t x = uint32_t(x0 * width); x < uint32_t(x1 * width); ++x)
                m = std::max(m, luminance(x, y));
        return m;
    }
    /// Fraction of the pixels in a rectangle (fractions of the image) that satisfy `test`.
    template <typename F>
    double fraction(double x0, double y0, double x1, double y1, F test) const
    {
        int n = 0, hit = 0;
        for (uint32_t y = uint32_t(y0 * height); y < uint32_t(y1 * height); ++y)
            for (uint32_t x = uint32_t(x0 * width); x < uint32_t(x1 * width); ++x, ++n)
                hit += test(at(x, y)) ? 1 : 0;
        return n ? double(hit) / n : 0;
    }
};

/// The PNG as RGBA8; an empty image (width 0) if it cannot be read.
inline Image readPng(const std::filesystem::path& path)
{
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    Image out;
    if (!png_image_begin_read_from_file(&image, path.c_str())) return out;
    image.format = PNG_FORMAT_RGBA;
    out.width = image.width, out.height = image.height;
    out.rgba.resize(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, nullptr, out.rgba.data(), 0, nullptr)) out = Image{};
    return out;
}
