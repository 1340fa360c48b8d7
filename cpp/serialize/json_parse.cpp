#include "serialize/json_parse.h"

#include <clocale>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "serialize/limits.h"

namespace fx {
namespace fxw {
namespace {

bool is_integer_literal(const std::string& text) {
  if (text.empty()) return false;
  for (size_t i = text[0] == '-' ? 1 : 0; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9') return false;
  return true;
}

// Objects up to this many keys find a key by scanning (as Json does); larger ones get a hash index.
constexpr size_t kIndexFrom = 16;

// A SAX handler (nlohmann's interface) building the DOM as nlohmann's json_sax_dom_parser does, except for
// how a key is found in a large object.
class DomBuilder {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  Json root;

  bool null() { return put(nullptr) != nullptr; }
  bool boolean(bool v) { return put(v) != nullptr; }
  bool number_integer(number_integer_t v) { return put(v) != nullptr; }
  bool number_unsigned(number_unsigned_t v) { return put(v) != nullptr; }
  // Json's lexer reads an integer literal outside int64/uint64 as a float; keep it as big_integer's marker
  // instead, so that the decoder of its field reports it rather than reading a rounded number.
  bool number_float(number_float_t v, const string_t& text) {
    if (is_integer_literal(text)) return put(big_integer(text)) != nullptr;
    return put(v) != nullptr;
  }
  bool string(string_t& v) { return put(std::move(v)) != nullptr; }
  bool binary(binary_t& v) { return put(Json::binary(std::move(v))) != nullptr; }

  bool start_object(std::size_t) {
    stack_.push_back(Frame{put(Json::object()), {}, nullptr});
    return true;
  }
  // Members gather in the frame (movable pairs) and move into the object, sized once, when it closes:
  // Json's ordered_map holds pair<const string, Json>, which a growing vector copies — deeply, the members'
  // whole subtrees — instead of moving.
  bool key(string_t& k) {
    Frame& f = stack_.back();
    if (!f.index && f.members.size() >= kIndexFrom) {
      f.index = std::make_unique<std::unordered_map<std::string, size_t>>();
      for (size_t i = 0; i < f.members.size(); ++i) f.index->emplace(f.members[i].first, i);
    }
    size_t at = f.members.size();
    if (!f.index) {
      for (size_t i = 0; i < f.members.size(); ++i)
        if (f.members[i].first == k) at = i;  // keys are unique: at most one matches
    } else {
      at = f.index->emplace(k, f.members.size()).first->second;
    }
    if (at == f.members.size()) f.members.emplace_back(std::move(k), nullptr);
    member_ = &f.members[at].second;  // a repeated key: its first place, the last value (as Json::parse)
    return true;
  }
  bool end_object() {
    Frame& f = stack_.back();
    Json::object_t& obj = f.value->get_ref<Json::object_t&>();
    obj.reserve(f.members.size());
    for (auto& [k, v] : f.members) obj.emplace_back(std::move(k), std::move(v));
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    stack_.push_back(Frame{put(Json::array()), {}, nullptr});
    return true;
  }
  bool end_array() {
    stack_.pop_back();
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& ex) {
    throw ex;  // as Json::parse throws it
  }

 private:
  struct Frame {
    Json* value;
    std::vector<std::pair<std::string, Json>> members;  // an object's, until it closes
    std::unique_ptr<std::unordered_map<std::string, size_t>> index;  // key → position, for large objects
  };

  // Places a value: the root, the next array item, or the member whose key came last. Returns where it is
  // (stable until the enclosing container grows, which it cannot while this value is open).
  Json* put(Json&& v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    Json& top = *stack_.back().value;
    if (top.is_array()) {
      Json::array_t& items = top.get_ref<Json::array_t&>();
      items.push_back(std::move(v));
      return &items.back();
    }
    *member_ = std::move(v);  // in the open object's frame: stable until its next key
    return member_;
  }

  std::vector<Frame> stack_;
  Json* member_ = nullptr;
};


// The JSON the writers produce — ASCII strings with the short escapes, integers of up to 18 digits, finite
// floats — read straight into `dom`, a few times faster than nlohmann's lexer (which copies every character
// twice on its way). Anything else (a unicode escape, a byte above 0x7F, a long integer, any error) answers false
// with `dom` half built: parse_json then runs Json's own parser, which stays the authority on what is valid
// and on every error message. What this accepts, Json::parse accepts too, as the same DOM.
class FastReader {
 public:
  FastReader(const std::string& text, DomBuilder& dom, size_t max_depth)
      : p_(text.data()), end_(text.data() + text.size()), dom_(dom), max_depth_(max_depth) {}

  bool read() {
    std::vector<char> open;  // '{' or '[' of each enclosing container
    skip_space();
    bool want_value = true;
    for (;;) {
      if (want_value) {
        if (p_ == end_) return false;
        const char c = *p_;
        if (c == '{' || c == '[') {
          ++p_;
          if (c == '{') dom_.start_object(static_cast<std::size_t>(-1));
          else dom_.start_array(static_cast<std::size_t>(-1));
          open.push_back(c);
          if (open.size() > max_depth_) return false;
          skip_space();
          if (p_ != end_ && *p_ == (c == '{' ? '}' : ']')) {
            ++p_;
            close(c);
            open.pop_back();
            want_value = false;
          } else if (c == '{' && !key()) {
            return false;
          }
          continue;
        }
        if (!scalar()) return false;
        want_value = false;
        continue;
      }
      skip_space();
      if (open.empty()) return p_ == end_;
      if (p_ == end_) return false;
      const char c = open.back();
      if (*p_ == ',') {
        ++p_;
        skip_space();
        if (c == '{' && !key()) return false;
        want_value = true;
      } else if (*p_ == (c == '{' ? '}' : ']')) {
        ++p_;
        close(c);
        open.pop_back();
      } else {
        return false;
      }
    }
  }

 private:
  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  void close(char c) {
    if (c == '{') dom_.end_object();
    else dom_.end_array();
  }

  // "name" : — leaves p_ at the value.
  bool key() {
    if (!string(text_)) return false;
    skip_space();
    if (p_ == end_ || *p_ != ':') return false;
    ++p_;
    skip_space();
    return dom_.key(text_);
  }

  bool string(std::string& out) {
    if (p_ == end_ || *p_ != '"') return false;
    ++p_;
    out.clear();
    for (;;) {
      const char* run = p_;
      while (p_ != end_ && static_cast<unsigned char>(*p_) >= 0x20 && static_cast<unsigned char>(*p_) < 0x80 &&
             *p_ != '"' && *p_ != '\\')
        ++p_;
      out.append(run, p_);
      if (p_ == end_) return false;
      if (*p_ == '"') {
        ++p_;
        return true;
      }
      if (*p_ != '\\' || end_ - p_ < 2) return false;  // a control character or a byte of UTF-8
      switch (p_[1]) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        default: return false;  // a unicode escape, or no escape
      }
      p_ += 2;
    }
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  bool scalar() {
    const char c = *p_;
    if (c == '"') {
      if (!string(text_)) return false;
      return dom_.string(text_);
    }
    if (c == 't') return literal("true", 4) && dom_.boolean(true);
    if (c == 'f') return literal("false", 5) && dom_.boolean(false);
    if (c == 'n') return literal("null", 4) && dom_.null();
    return number();
  }

  bool literal(const char* word, size_t n) {
    if (static_cast<size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
    p_ += n;
    return true;
  }

  // JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  bool number() {
    const char* begin = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || !digit(*p_)) return false;
    if (*p_ == '0') ++p_;
    else
      while (p_ != end_ && digit(*p_)) ++p_;
    const char* int_end = p_;
    bool is_float = false;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      while (p_ != end_ && digit(*p_)) ++p_;
      is_float = true;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      while (p_ != end_ && digit(*p_)) ++p_;
      is_float = true;
    }
    if (!is_float) {
      const char* d = begin + (negative ? 1 : 0);
      if (int_end - d > 18) return false;  // may not fit: Json's parser decides (integer or float)
      uint64_t v = 0;
      for (; d != int_end; ++d) v = v * 10 + static_cast<uint64_t>(*d - '0');
      if (negative) return dom_.number_integer(-static_cast<Json::number_integer_t>(v));
      return dom_.number_unsigned(v);
    }
    // As Json's lexer: strtod of the token (it writes the locale's decimal point; this path only under '.').
    const char* point = std::localeconv()->decimal_point;
    if (!point || std::strcmp(point, ".") != 0) return false;
    text_.assign(begin, p_);
    const double v = std::strtod(text_.c_str(), nullptr);
    if (!std::isfinite(v)) return false;  // Json::parse: "number overflow"
    return dom_.number_float(v, text_);
  }

  const char* p_;
  const char* end_;
  DomBuilder& dom_;
  const size_t max_depth_;  // containers nested deeper: not read here
  std::string text_;  // the string or number being read
};

}  // namespace

Json big_integer(const std::string& text) {
  return Json::binary(Json::binary_t::container_type(text.begin(), text.end()), kBigIntegerSubtype);
}

bool is_big_integer(const Json& j) {
  return j.is_binary() && j.get_binary().has_subtype() && j.get_binary().subtype() == kBigIntegerSubtype;
}

std::string big_integer_text(const Json& j) {
  const auto& bytes = j.get_binary();
  return clip(std::string(bytes.begin(), bytes.end()), 40);
}

Json parse_json(const std::string& text) {
  {
    DomBuilder dom;
    if (FastReader(text, dom, SIZE_MAX).read()) return std::move(dom.root);
  }
  DomBuilder dom;  // outside the fast path's subset (or not JSON): Json's parser decides
  Json::sax_parse(text, &dom);
  return std::move(dom.root);
}

Json parse_json_checked(const std::string& text, const std::string& what) {
  {
    DomBuilder dom;
    if (FastReader(text, dom, kMaxJsonDepth).read()) return std::move(dom.root);  // so no deeper than the limit
  }
  check_json_depth(text, what);
  DomBuilder dom;
  Json::sax_parse(text, &dom);
  return std::move(dom.root);
}

}  // namespace fxw
}  // namespace fx
