#include "input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

namespace ptxvm::tool {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

std::string too_large(const std::string& path, uint64_t max_bytes) {
  return path + ": larger than the input size limit of " + std::to_string(max_bytes) +
         " bytes (raise it with --max-input-mb)";
}

}  // namespace

std::string read_input(const std::string& path, uint64_t max_bytes) {
  if (path == "-") {  // standard input: read at most the limit
    std::string text;
    char buf[65536];
    while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
      text.append(buf, static_cast<size_t>(std::cin.gcount()));
      if (text.size() > max_bytes) throw InputError(too_large("<stdin>", max_bytes));
    }
    return text;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InputError(path + ": is " + kind_of(st.st_mode) + ", not a regular file");
  if (static_cast<uint64_t>(st.st_size) > max_bytes) throw InputError(too_large(path, max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  std::string text(static_cast<size_t>(st.st_size), '\0');
  in.read(text.data(), st.st_size);
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

}  // namespace ptxvm::tool
