// .npy (format 1.0/2.0/3.0) and raw file reading and writing for the vkcompute dtypes.
#include "io/npy.hpp"

#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <system_error>

// Array::bytes is little-endian by contract and is copied to and from disk unchanged.
static_assert(std::endian::native == std::endian::little, "vkc::io assumes a little-endian host");

namespace vkc::io {
namespace {

namespace fs = std::filesystem;

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::string_view descr;
  std::size_t size;
};

// In the order of the enumeration (info() indexes it).
constexpr std::array<DTypeInfo, 11> dtype_table{{
    {DType::u32, "u32", "<u4", 4},
    {DType::i32, "i32", "<i4", 4},
    {DType::f32, "f32", "<f4", 4},
    {DType::u64, "u64", "<u8", 8},
    {DType::i64, "i64", "<i8", 8},
    {DType::f64, "f64", "<f8", 8},
    {DType::u8, "u8", "|u1", 1},
    {DType::i8, "i8", "|i1", 1},
    {DType::u16, "u16", "<u2", 2},
    {DType::i16, "i16", "<i2", 2},
    {DType::f16, "f16", "<f2", 2},
}};

constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < dtype_table.size(); ++i) {
    if (static_cast<std::size_t>(dtype_table[i].dtype) != i) return false;
  }
  return true;
}
static_assert(table_in_enum_order());

const DTypeInfo& info(DType dtype) { return dtype_table.at(static_cast<std::size_t>(dtype)); }

constexpr std::string_view magic = "\x93NUMPY";
// Linux transfers at most ~2 GiB per read(); larger buffers are filled in chunks.
constexpr std::size_t max_chunk = std::size_t{1} << 30;

[[noreturn]] void fail(const fs::path& path, const std::string& problem) {
  throw FormatError(path.string() + ": " + problem);
}

std::string errno_message(int error) { return std::generic_category().message(error); }

// The Python literal nesting and header size a valid .npy file can need, with room to spare:
// NumPy limits arrays to 64 dimensions and np.load to 10000-byte headers by default.
constexpr int max_nesting = 32;
constexpr std::uint64_t max_header_bytes = std::uint64_t{1} << 20;

// Text from a file, fit for a one-line message: bytes outside printable ASCII (NUL, newlines,
// escapes) as \xNN, and at most 40 characters of it.
std::string brief(std::string_view text) {
  constexpr std::size_t limit = 40;
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      constexpr char hex[] = "0123456789abcdef";
      out += {'\\', 'x', hex[c >> 4], hex[c & 15]};
    }
  }
  if (text.size() > limit) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

// "()", "(5,)", "(3, 4)": Python's repr of a tuple, as in .npy headers and NumPy's messages.
std::string shape_repr(std::span<const std::size_t> shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

// Bytes the shape needs, or nullopt when that does not fit in 64 bits.
std::optional<std::uint64_t> byte_count(std::span<const std::size_t> shape, DType dtype) {
  if (std::ranges::find(shape, 0) != shape.end()) return 0;
  std::uint64_t bytes = dtype_size(dtype);
  for (std::size_t dim : shape) {
    if (bytes > std::numeric_limits<std::uint64_t>::max() / dim) return std::nullopt;
    bytes *= dim;
  }
  return bytes;
}

// An input opened for sequential reading with POSIX calls, which (unlike iostreams) can fill a
// multi-GiB vector without intermediate buffers and report errno. "-" is standard input; a
// pipe, terminal or device is read as a stream whose size is unknown until its end.
class InputFile {
 public:
  explicit InputFile(const fs::path& path) : path_(path) {
    if (path == "-") {
      fd_ = STDIN_FILENO;
      owned_ = false;
    } else {
      fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    }
    if (fd_ < 0) fail(path_, "cannot open: " + errno_message(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0) close_and_fail("cannot stat: " + errno_message(errno));
    if (S_ISDIR(st.st_mode)) close_and_fail("a directory, not a regular file");
    if (S_ISREG(st.st_mode)) size_ = static_cast<std::uint64_t>(st.st_size);
  }
  ~InputFile() {
    if (owned_) ::close(fd_);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const fs::path& path() const { return path_; }

  /// Bytes left in a regular file; nullopt for a stream.
  std::optional<std::uint64_t> remaining() const {
    if (!size_) return std::nullopt;
    return *size_ - std::min(*size_, position_);
  }

  // Reads until out is full or the input ends; returns how many bytes it read.
  std::size_t read_up_to(std::span<std::byte> out) {
    std::size_t done = 0;
    while (done < out.size()) {
      ssize_t n = ::read(fd_, out.data() + done, std::min(out.size() - done, max_chunk));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(path_, "read error: " + errno_message(errno));
      if (n == 0) break;
      done += static_cast<std::size_t>(n);
      position_ += static_cast<std::uint64_t>(n);
    }
    return done;
  }

  // Fills out completely; `what` names the part being read for the truncation message.
  void read_exact(std::span<std::byte> out, std::string_view what) {
    if (read_up_to(out) == out.size()) return;
    fail(path_, "truncated " + std::string(what) + (size_ ? " (the file shrank while being read?)" : ""));
  }

  /// Fills out with the file's bytes from `offset` on (pread: any thread, any order).
  void read_exact_at(std::uint64_t offset, std::span<std::byte> out) const {
    std::size_t done = 0;
    while (done < out.size()) {
      ssize_t n = ::pread(fd_, out.data() + done, std::min(out.size() - done, max_chunk),
                          static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(path_, "read error: " + errno_message(errno));
      if (n == 0) fail(path_, "truncated data (the file shrank while being read?)");
      done += static_cast<std::size_t>(n);
    }
  }

  bool is_regular() const { return size_.has_value(); }
  std::uint64_t position() const { return position_; }

  // True when no byte follows (consumes one byte otherwise).
  bool at_end() {
    std::byte one{};
    return read_up_to(std::span(&one, 1)) == 0;
  }

 private:
  [[noreturn]] void close_and_fail(const std::string& problem) {
    if (owned_) ::close(fd_);
    fail(path_, problem);
  }

  fs::path path_;
  int fd_ = -1;
  bool owned_ = true;
  std::optional<std::uint64_t> size_;
  std::uint64_t position_ = 0;
};

// ---- The header dict: a small parser for the Python literals .npy headers contain ----

struct Value {
  enum class Kind { string, boolean, integer, tuple, list };
  Kind kind = Kind::string;
  std::string text;  // string contents, or the source text of anything else (for messages)
  bool flag = false;
  std::uint64_t number = 0;
  std::vector<Value> items;
};

class HeaderParser {
 public:
  HeaderParser(const fs::path& path, std::string_view text) : path_(path), text_(text) {}

  // {'key': value, ...} followed only by padding; any key order, trailing comma allowed.
  std::map<std::string, Value> dict() {
    std::map<std::string, Value> entries;
    expect('{');
    while (!consume('}')) {
      std::string key = value_of_kind(Value::Kind::string, "a string key").text;
      expect(':');
      if (!entries.emplace(key, value()).second) error("duplicate key '" + brief(key) + "'");
      if (!consume(',')) {
        expect('}');
        break;
      }
    }
    skip_space();
    if (pos_ != text_.size()) error("unexpected text after the closing '}'");
    return entries;
  }

 private:
  Value value() {
    skip_space();
    char c = peek();
    std::size_t start = pos_;
    Value v;
    if (c == '\'' || c == '"') {
      v.text = quoted();
      return v;
    }
    if (c == '(' || c == '[') {
      v.kind = c == '(' ? Value::Kind::tuple : Value::Kind::list;
      // The parser recurses once per level: a cap keeps a hostile header off the stack's end.
      if (++depth_ > max_nesting) error("nested deeper than " + std::to_string(max_nesting) + " levels");
      v.items = sequence(c == '(' ? ')' : ']');
      --depth_;
    } else if (c >= '0' && c <= '9') {
      v.kind = Value::Kind::integer;
      v.number = integer();
    } else if (word("True") || word("False")) {
      v.kind = Value::Kind::boolean;
      v.flag = text_.substr(start, 4) == "True";
    } else {
      error(c == '-' ? "negative number" : "unexpected character '" + brief(std::string_view(&c, 1)) + "'");
    }
    v.text = std::string(text_.substr(start, pos_ - start));
    return v;
  }

  Value value_of_kind(Value::Kind kind, std::string_view what) {
    Value v = value();
    if (v.kind != kind) error("expected " + std::string(what) + ", found " + brief(v.text));
    return v;
  }

  std::vector<Value> sequence(char close) {
    ++pos_;  // the opening bracket
    std::vector<Value> items;
    while (!consume(close)) {
      items.push_back(value());
      if (!consume(',')) {
        expect(close);
        break;
      }
    }
    return items;
  }

  std::string quoted() {
    const char quote = text_[pos_++];
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out += text_[pos_++];
    }
    if (pos_ == text_.size()) error("unterminated string");
    ++pos_;
    return out;
  }

  std::uint64_t integer() {
    std::uint64_t n = 0;
    for (; pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9'; ++pos_) {
      auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (n > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) error("integer too large");
      n = n * 10 + digit;
    }
    if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2 longs, e.g. (5L,)
    return n;
  }

  bool word(std::string_view w) {
    if (text_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  char peek() {
    if (pos_ == text_.size()) error("unexpected end");
    return text_[pos_];
  }

  bool consume(char c) {
    skip_space();
    if (pos_ == text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  void expect(char c) {
    skip_space();
    if (!consume(c)) error("expected '" + std::string(1, c) + "'");
  }

  [[noreturn]] void error(const std::string& problem) {
    fail(path_, "malformed header dict: " + problem + " at byte " + std::to_string(pos_) + " of the dict");
  }

  const fs::path& path_;
  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

// ---- From the parsed dict to a dtype and a shape ----

DType dtype_from_descr(const fs::path& path, const Value& descr) {
  if (descr.kind != Value::Kind::string) {
    fail(path, "unsupported dtype " + brief(descr.text) + ": structured and subarray dtypes are not supported");
  }
  std::string text = descr.text;
  // '=' and no prefix mean native order, which static_assert above pins to little-endian.
  if (text.starts_with('=')) text[0] = '<';
  if (!text.empty() && text[0] != '<' && text[0] != '>' && text[0] != '|') text.insert(0, 1, '<');
  // A byte has no order: NumPy writes '|u1', and takes '<u1' and '>u1' for the same type.
  if (text.size() == 3 && text.ends_with('1')) text[0] = '|';
  for (const DTypeInfo& entry : dtype_table) {
    if (text == entry.descr) return entry.dtype;
  }
  std::string why = "expected one of";
  const char* separator = " ";
  for (const DTypeInfo& entry : dtype_table) {
    (why += separator) += entry.descr;
    separator = ", ";
  }
  if (text.starts_with('>') && text.size() > 2) why = "big-endian data is not supported, " + why;
  if (text == "|O" || text == "<O") why = "object arrays hold Python objects, not numbers";
  fail(path, "unsupported dtype '" + brief(descr.text) + "': " + why);
}

std::vector<std::size_t> shape_from(const fs::path& path, const Value& shape) {
  if (shape.kind != Value::Kind::tuple && shape.kind != Value::Kind::list) {
    fail(path, "malformed header dict: 'shape' is " + brief(shape.text) + ", not a tuple");
  }
  std::vector<std::size_t> dims;
  for (const Value& dim : shape.items) {
    if (dim.kind != Value::Kind::integer || dim.number > std::numeric_limits<std::size_t>::max()) {
      fail(path, "malformed header dict: 'shape' " + brief(shape.text) + " holds a non-integer");
    }
    dims.push_back(static_cast<std::size_t>(dim.number));
  }
  return dims;
}

const Value& require(const fs::path& path, const std::map<std::string, Value>& dict, const std::string& key) {
  auto it = dict.find(key);
  if (it == dict.end()) fail(path, "malformed header dict: no '" + key + "' key");
  return it->second;
}

Array array_from_header(const fs::path& path, std::string_view header) {
  std::map<std::string, Value> dict = HeaderParser(path, header).dict();
  for (const auto& [key, value] : dict) {
    if (key != "descr" && key != "fortran_order" && key != "shape") {
      fail(path, "malformed header dict: unexpected key '" + brief(key) + "'");
    }
  }
  Array array;
  array.dtype = dtype_from_descr(path, require(path, dict, "descr"));
  const Value& fortran = require(path, dict, "fortran_order");
  if (fortran.kind != Value::Kind::boolean) fail(path, "malformed header dict: 'fortran_order' is not True/False");
  if (fortran.flag) fail(path, "fortran_order: True (column-major) arrays are not supported; save in C order");
  array.shape = shape_from(path, require(path, dict, "shape"));
  return array;
}

// Reads version and header length (the magic is already read), then the header; leaves the
// input at the data.
std::string read_header_text(InputFile& file) {
  const fs::path& path = file.path();
  std::array<std::byte, 4> prefix{};
  const std::size_t have = file.read_up_to(prefix);
  if (have < prefix.size()) fail(path, "truncated header (file is " + std::to_string(magic.size() + have) + " bytes)");
  const auto major = static_cast<unsigned>(prefix[0]);
  const auto minor = static_cast<unsigned>(prefix[1]);
  if ((major < 1 || major > 3) || minor != 0) {
    fail(path, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
  }
  // Version 1.0 stores the header length in 2 bytes, 2.0 and 3.0 in 4 (all little-endian).
  std::uint64_t length = std::to_integer<unsigned>(prefix[2]) | std::to_integer<unsigned>(prefix[3]) << 8;
  if (major >= 2) {
    std::array<std::byte, 2> high{};
    if (file.read_up_to(high) != high.size()) fail(path, "truncated header (ends inside the header length)");
    length |= std::uint64_t{std::to_integer<unsigned>(high[0]) | std::to_integer<unsigned>(high[1]) << 8} << 16;
  }
  if (length > max_header_bytes) {
    fail(path, "header of " + std::to_string(length) + " bytes is longer than the " +
                   std::to_string(max_header_bytes) + "-byte limit");
  }
  if (file.remaining() && *file.remaining() < length) {
    fail(path, "truncated header (declares " + std::to_string(length) + " bytes, " +
                   std::to_string(*file.remaining()) + " remain in the file)");
  }
  std::string text(length, '\0');
  file.read_exact(std::as_writable_bytes(std::span(text)), "header");
  return text;
}

std::string data_size_problem(const Array& array, std::uint64_t needed, std::uint64_t present) {
  const std::string what = "shape " + shape_repr(array.shape) + " of " + std::string(dtype_name(array.dtype)) +
                           " needs " + std::to_string(needed) + " data bytes, the file has " +
                           std::to_string(present);
  return (present < needed ? "truncated data: " : "data longer than the header says: ") + what;
}

}  // namespace

std::string npy_header(DType dtype, std::span<const std::size_t> shape) {
  const std::string dict = "{'descr': '" + std::string(npy_descr(dtype)) +
                           "', 'fortran_order': False, 'shape': " + shape_repr(shape) + ", }";
  for (unsigned major : {1u, 2u}) {
    const std::size_t prefix_size = major == 1 ? 10 : 12;
    const std::size_t total = (prefix_size + dict.size() + 1 + 63) / 64 * 64;
    const std::size_t length = total - prefix_size;
    if (major == 1 && length > 0xffff) continue;  // does not fit version 1.0's 2-byte length
    std::string out(magic);
    out += static_cast<char>(major);
    out += '\0';
    for (std::size_t i = 0; i < prefix_size - 8; ++i) out += static_cast<char>((length >> (8 * i)) & 0xff);
    out += dict;
    out.append(total - out.size() - 1, ' ');
    return out + '\n';
  }
  throw Error("vkc::io::write_npy: header longer than 4 GiB");
}

std::size_t dtype_size(DType dtype) { return info(dtype).size; }
std::string_view dtype_name(DType dtype) { return info(dtype).name; }
std::string_view npy_descr(DType dtype) { return info(dtype).descr; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (const DTypeInfo& entry : dtype_table) {
    if (entry.name == name) return entry.dtype;
  }
  return std::nullopt;
}

std::size_t Array::count() const {
  std::size_t n = 1;
  for (std::size_t dim : shape) n *= dim;
  return n;
}

struct ArrayReader::Input {
  explicit Input(const fs::path& path) : file(path) {}
  InputFile file;
  std::vector<std::byte> lead;  // bytes read to look for the magic that belong to raw data
};

ArrayReader::ArrayReader(const fs::path& path, InputFormat format, DType raw_type)
    : input_(std::make_unique<Input>(path)) {
  array_.dtype = raw_type;
  if (format != InputFormat::raw) {
    input_->lead.resize(magic.size());
    input_->lead.resize(input_->file.read_up_to(input_->lead));
    npy_ = input_->lead.size() == magic.size() && std::memcmp(input_->lead.data(), magic.data(), magic.size()) == 0;
    if (format == InputFormat::npy && !npy_) fail(path, "not an .npy file (no \\x93NUMPY magic at the start)");
  }
  if (npy_) {
    input_->lead.clear();
    array_ = array_from_header(path, read_header_text(input_->file));
    const std::optional<std::uint64_t> needed = byte_count(array_.shape, array_.dtype);
    if (!needed) fail(path, "shape " + shape_repr(array_.shape) + " is too large to address");
    data_bytes_ = *needed;
    const auto remaining = input_->file.remaining();
    // Checked before anything is allocated, so a corrupt shape cannot ask for terabytes.
    if (remaining && *needed != *remaining) fail(path, data_size_problem(array_, *needed, *remaining));
  } else if (const auto remaining = input_->file.remaining()) {
    data_bytes_ = input_->lead.size() + *remaining;
    check_raw_size(*data_bytes_);
    array_.shape = {static_cast<std::size_t>(*data_bytes_ / dtype_size(raw_type))};
  }
}

ArrayReader::~ArrayReader() = default;

bool ArrayReader::seekable() const { return input_ && input_->file.is_regular() && data_bytes_; }

void ArrayReader::read_at(std::uint64_t offset, void* dst, std::uint64_t bytes) const {
  if (!seekable()) throw Error("ArrayReader::read_at on a stream or after read()");
  if (offset > *data_bytes_ || bytes > *data_bytes_ - offset) {
    throw Error("ArrayReader::read_at past the end of the data");
  }
  // The data starts where the header ended; raw data's first bytes were read as the lead.
  const std::uint64_t data_start = input_->file.position() - input_->lead.size();
  input_->file.read_exact_at(data_start + offset, std::span(static_cast<std::byte*>(dst), bytes));
}

std::optional<std::uint64_t> ArrayReader::count() const {
  if (!data_bytes_) return std::nullopt;
  return *data_bytes_ / dtype_size(array_.dtype);
}

void ArrayReader::check_raw_size(std::uint64_t bytes) const {
  if (bytes % dtype_size(array_.dtype) != 0) {
    fail(input_->file.path(), "size " + std::to_string(bytes) + " bytes is not a multiple of " +
                                  std::to_string(dtype_size(array_.dtype)) + ", the size of " +
                                  std::string(dtype_name(array_.dtype)));
  }
}

Array ArrayReader::read(std::uint64_t max_bytes) {
  if (!input_) throw Error("ArrayReader::read called twice");
  InputFile& file = input_->file;
  Array array = array_;
  if (data_bytes_) {
    if (*data_bytes_ > max_bytes) fail(file.path(), std::to_string(*data_bytes_) + " data bytes, more than the " +
                                                       std::to_string(max_bytes) + " allowed");
    array.bytes.resize(static_cast<std::size_t>(*data_bytes_));
    std::memcpy(array.bytes.data(), input_->lead.data(), input_->lead.size());
    file.read_exact(std::span(array.bytes).subspan(input_->lead.size()), "data");
    check_stream_ended();
  } else {
    array.bytes = std::move(input_->lead);
    constexpr std::size_t step = std::size_t{1} << 20;
    for (std::size_t got = step; got == step;) {
      if (array.bytes.size() > max_bytes) {
        fail(file.path(), "more than the " + std::to_string(max_bytes) + " data bytes allowed");
      }
      const std::size_t at = array.bytes.size();
      array.bytes.resize(at + step);
      got = file.read_up_to(std::span(array.bytes).subspan(at));
      array.bytes.resize(at + got);
    }
    if (array.bytes.size() > max_bytes) fail(file.path(), "more than the " + std::to_string(max_bytes) + " data bytes allowed");
    check_raw_size(array.bytes.size());
    array.shape = {array.bytes.size() / dtype_size(array.dtype)};
  }
  input_.reset();
  return array;
}

void ArrayReader::read_in_pieces(const std::function<void(std::span<const std::byte>)>& consume) {
  if (!input_) throw Error("ArrayReader read twice");
  if (!data_bytes_) throw Error("ArrayReader::read_in_pieces on raw data of unknown length");
  if (!input_->lead.empty()) consume(input_->lead);
  std::vector<std::byte> piece(static_cast<std::size_t>(std::min<std::uint64_t>(*data_bytes_, 4 << 20)));
  for (std::uint64_t left = *data_bytes_ - input_->lead.size(); left > 0;) {
    const auto part = std::span(piece).first(static_cast<std::size_t>(std::min<std::uint64_t>(piece.size(), left)));
    input_->file.read_exact(part, "data");
    consume(part);
    left -= part.size();
  }
  check_stream_ended();
  input_.reset();
}

// A stream (whose length was not known at open) must end where the header says the data does.
void ArrayReader::check_stream_ended() {
  InputFile& file = input_->file;
  if (!file.remaining() && npy_ && !file.at_end()) {
    fail(file.path(), "data longer than the header says: shape " + shape_repr(array_.shape) + " of " +
                          std::string(dtype_name(array_.dtype)) + " needs " + std::to_string(*data_bytes_) + " bytes");
  }
}

Array read_npy(const fs::path& path) { return ArrayReader(path, InputFormat::npy).read(); }

Array read_raw(const fs::path& path, DType dtype) { return ArrayReader(path, InputFormat::raw, dtype).read(); }

bool looks_like_npy(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<char, magic.size()> start{};
  in.read(start.data(), start.size());
  return in.gcount() == static_cast<std::streamsize>(start.size()) &&
         std::string_view(start.data(), start.size()) == magic;
}

void write_npy(AtomicFile& file, DType dtype, std::span<const std::byte> data, std::vector<std::size_t> shape) {
  const std::optional<std::uint64_t> needed = byte_count(shape, dtype);
  if (!needed || *needed != data.size()) {
    throw Error("vkc::io::write_npy(" + file.target().string() + "): " + std::to_string(data.size()) +
                " bytes given for shape " + shape_repr(shape) + " of " + std::string(dtype_name(dtype)));
  }
  const std::string header = npy_header(dtype, shape);
  file.write(std::as_bytes(std::span(header)));
  file.write(data);
  file.commit();
}

void write_npy(const fs::path& path, DType dtype, std::span<const std::byte> data, std::vector<std::size_t> shape) {
  const std::optional<std::uint64_t> needed = byte_count(shape, dtype);
  if (!needed || *needed != data.size()) {
    throw Error("vkc::io::write_npy(" + path.string() + "): " + std::to_string(data.size()) +
                " bytes given for shape " + shape_repr(shape) + " of " + std::string(dtype_name(dtype)));
  }
  AtomicFile file(path);
  write_npy(file, dtype, data, std::move(shape));
}

void write_raw(AtomicFile& file, std::span<const std::byte> data) {
  file.write(data);
  file.commit();
}

void write_raw(const fs::path& path, std::span<const std::byte> data) {
  AtomicFile file(path);
  write_raw(file, data);
}

}  // namespace vkc::io
