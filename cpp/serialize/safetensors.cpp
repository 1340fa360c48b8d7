#include "serialize/safetensors.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "serialize/json_parse.h"
#include "serialize/limits.h"
#include "support/error.h"

namespace fx {
namespace fxw {
namespace {

using Json = nlohmann::ordered_json;

[[noreturn]] void bad(const std::string& message) { throw FxError("fxwasm file: " + message); }

uint64_t read_u64_le(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void write_u64_le(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

bool is_pad(const std::string& name) { return name.rfind("__pad__.", 0) == 0; }

// `name`'s field `what` (a message is built only on failure: a header lists hundreds of tensors).
uint64_t non_negative(const Json& j, const std::string& name, const char* what) {
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_number_integer() && j.get<int64_t>() >= 0) return static_cast<uint64_t>(j.get<int64_t>());
  bad("tensor '" + name + "': " + what + " must be a non-negative integer, found " +
      clip(j.dump(-1, ' ', false, Json::error_handler_t::replace)));
}

TensorEntry parse_entry(const std::string& name, const Json& info, size_t data_size) {
  auto where = [&] { return "tensor '" + name + "'"; };
  if (!info.is_object()) bad(where() + ": expected an object with dtype, shape and data_offsets");
  TensorEntry e;
  e.name = name;
  auto field = [&](const char* key) -> const Json& {
    auto it = info.find(key);
    if (it == info.end()) bad(where() + ": missing '" + key + "'");
    return *it;
  };
  const Json& dtype = field("dtype");
  if (!dtype.is_string()) bad(where() + ": dtype must be a string");
  try {
    e.dtype = dtype_from_safetensors(dtype.get_ref<const std::string&>());
  } catch (const FxError&) {
    bad(where() + ": unknown dtype '" + dtype.get<std::string>() +
        "' (expected F32, F64, F16, BF16, I64, I32, I16, I8, U8 or BOOL)");
  }
  const Json& shape = field("shape");
  if (!shape.is_array()) bad(where() + ": shape must be an array");
  if (shape.size() > kMaxRank)
    bad(where() + ": rank " + std::to_string(shape.size()) + " exceeds the limit of " + std::to_string(kMaxRank));
  e.shape.reserve(shape.size());
  for (const Json& d : shape) {
    const uint64_t dim = non_negative(d, name, "shape dimension");
    if (dim > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) bad(where() + ": shape dimension too large");
    e.shape.push_back(static_cast<int64_t>(dim));
  }
  int64_t numel = 0;
  try {
    numel = checked_numel(e.shape);
  } catch (const FxError&) {
    bad(where() + ": element count of its shape overflows");
  }
  const uint64_t esize = dtype_size(e.dtype);
  if (static_cast<uint64_t>(numel) > std::numeric_limits<uint64_t>::max() / esize)
    bad(where() + ": byte size of its shape overflows");
  const uint64_t nbytes = static_cast<uint64_t>(numel) * esize;
  const Json& offsets = field("data_offsets");
  if (!offsets.is_array() || offsets.size() != 2) bad(where() + ": data_offsets must be [begin, end]");
  e.begin = non_negative(offsets[0], name, "data_offsets begin");
  e.end = non_negative(offsets[1], name, "data_offsets end");
  auto offs = [&] { return "[" + std::to_string(e.begin) + ", " + std::to_string(e.end) + "]"; };
  if (e.begin > e.end) bad(where() + ": data_offsets " + offs() + " end before they begin");
  if (e.end > data_size)
    bad(where() + ": data_offsets " + offs() + " run past the data section (" + std::to_string(data_size) + " bytes)");
  if (e.end - e.begin != nbytes)
    bad(where() + ": data_offsets " + offs() + " hold " + std::to_string(e.end - e.begin) + " bytes but dtype " +
        dtype.get<std::string>() + " with shape of " + std::to_string(numel) + " elements needs " +
        std::to_string(nbytes));
  return e;
}

// Tensors may come in any order, but no two may share bytes (as in safetensors): otherwise a small file
// could name the same megabytes thousands of times and make the reader copy them all.
void check_no_overlap(std::vector<const TensorEntry*> entries) {
  std::sort(entries.begin(), entries.end(), [](const TensorEntry* a, const TensorEntry* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  const TensorEntry* last = nullptr;  // the non-empty tensor reaching furthest so far
  for (const TensorEntry* e : entries) {
    if (e->begin == e->end) continue;  // an empty tensor holds no bytes
    if (last && e->begin < last->end)
      bad("tensor '" + e->name + "': data_offsets [" + std::to_string(e->begin) + ", " + std::to_string(e->end) +
          "] overlap those of tensor '" + last->name + "' [" + std::to_string(last->begin) + ", " +
          std::to_string(last->end) + "]");
    if (!last || e->end > last->end) last = e;
  }
}

}  // namespace

Container parse_container(const uint8_t* bytes, size_t size) {
  if (bytes == nullptr && size != 0) bad("no data");
  if (size < 8) bad("too short (" + std::to_string(size) + " bytes) to hold the 8-byte header length");
  const uint64_t n = read_u64_le(bytes);
  if (n > size - 8)
    bad("header length " + std::to_string(n) + " exceeds file size " + std::to_string(size));
  if (n > kMaxHeaderBytes)
    bad("header length " + std::to_string(n) + " exceeds the limit of " + std::to_string(kMaxHeaderBytes) + " bytes");
  const std::string text(reinterpret_cast<const char*>(bytes + 8), static_cast<size_t>(n));
  Json header;
  try {
    header = parse_json_checked(text, "fxwasm file: header");
  } catch (const Json::exception& e) {
    bad("header is not valid JSON (" + clip(e.what(), 300) + ")");
  }
  if (!header.is_object()) bad("header must be a JSON object");

  Container c;
  c.data = bytes + 8 + n;
  c.data_size = size - 8 - static_cast<size_t>(n);

  auto meta = header.find("__metadata__");
  if (meta == header.end() || !meta->is_object()) bad("no __metadata__ (this is not an fxwasm file)");
  auto meta_string = [&](const char* key) -> std::string& {
    auto it = meta->find(key);
    if (it == meta->end() || !it->is_string()) bad(std::string("__metadata__.") + key + " is missing or not a string");
    return it->get_ref<std::string&>();
  };
  const std::string format = meta_string("format");
  if (format != "fxwasm") bad("__metadata__.format is '" + format + "', expected 'fxwasm'");
  const std::string version = meta_string("format_version");
  if (version != "1") bad("format_version '" + version + "' is not supported (this reader reads version 1)");
  c.program = std::move(meta_string("program"));  // the header is done with it: no copy

  std::vector<TensorEntry> pads;
  for (auto it = header.begin(); it != header.end(); ++it) {
    if (it.key() == "__metadata__") continue;
    check_string_length(it.key(), "fxwasm file: tensor name");
    TensorEntry e = parse_entry(it.key(), it.value(), c.data_size);
    (is_pad(e.name) ? pads : c.tensors).push_back(std::move(e));
  }
  std::vector<const TensorEntry*> all;
  for (const auto* list : {&c.tensors, &pads})
    for (const TensorEntry& e : *list) all.push_back(&e);
  check_no_overlap(std::move(all));
  return c;
}

std::vector<uint8_t> build_container(const std::string& program, const std::vector<TensorToWrite>& tensors) {
  Json header = Json::object();
  Json meta = Json::object();
  meta["format"] = "fxwasm";
  meta["format_version"] = "1";
  meta["program"] = program;
  header["__metadata__"] = std::move(meta);

  std::vector<Tensor> packed;  // contiguous copies where needed, kept alive until copied out
  packed.reserve(tensors.size());
  uint64_t offset = 0;
  size_t pads = 0;
  auto entry = [](const char* dtype, const Shape& shape, uint64_t begin, uint64_t end) {
    Json e = Json::object();
    e["dtype"] = dtype;
    e["shape"] = shape;
    e["data_offsets"] = Json::array({begin, end});
    return e;
  };
  std::vector<uint64_t> placed;  // offset of packed[i]
  for (const TensorToWrite& t : tensors) {
    if (header.contains(t.name)) throw FxError("cannot write two tensors named '" + t.name + "'");
    if (!t.tensor || !t.tensor->defined()) throw FxError("tensor '" + t.name + "' is undefined");
    const uint64_t gap = (kAlignment - offset % kAlignment) % kAlignment;
    if (gap) {
      header["__pad__." + std::to_string(pads++)] = entry("U8", {static_cast<int64_t>(gap)}, offset, offset + gap);
      offset += gap;
    }
    packed.push_back(t.tensor->contiguous());
    const Tensor& p = packed.back();
    header[t.name] = entry(dtype_safetensors_name(p.dtype()), p.shape(), offset, offset + p.nbytes());
    placed.push_back(offset);
    offset += p.nbytes();
  }

  std::string text;
  try {
    text = header.dump();
  } catch (const Json::exception& e) {
    throw FxError(std::string("cannot write the header: ") + e.what());
  }
  text.append((kAlignment - (8 + text.size()) % kAlignment) % kAlignment, ' ');
  if (text.size() > kMaxHeaderBytes)
    throw FxError("the header would be " + std::to_string(text.size()) + " bytes, above the format's limit");

  std::vector<uint8_t> out(8 + text.size() + offset, 0);
  write_u64_le(out.data(), text.size());
  std::memcpy(out.data() + 8, text.data(), text.size());
  uint8_t* data = out.data() + 8 + text.size();
  for (size_t i = 0; i < packed.size(); ++i)
    if (packed[i].nbytes()) std::memcpy(data + placed[i], packed[i].raw_data(), packed[i].nbytes());
  return out;
}

}  // namespace fxw
}  // namespace fx
