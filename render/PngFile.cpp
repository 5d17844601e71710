// SPDX-License-Identifier: Apache-2.0
// Screenshots as PNG files (see PngFile.h).
#include "PngFile.h"

#include <png.h>

#include <cstdio>
#include <stdexcept>

namespace vbm::render {

void writePng(const std::string& path, const std::vector<uint32_t>& rgba, uint32_t width, uint32_t height)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write the screenshot " + path);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        std::fclose(f);
        throw std::runtime_error("writing the PNG " + path + " failed");
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; ++y)
        png_write_row(png, reinterpret_cast<png_const_bytep>(rgba.data() + size_t(y) * width));
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    if (std::fclose(f) != 0) throw std::runtime_error("writing the PNG " + path + " failed");
}

} // namespace vbm::render
