#include "serialize/json_parse.h"

#include <cstddef>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fx {
namespace fxw {
namespace {

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
  bool number_float(number_float_t v, const string_t&) { return put(v) != nullptr; }
  bool string(string_t& v) { return put(std::move(v)) != nullptr; }
  bool binary(binary_t& v) { return put(Json::binary(std::move(v))) != nullptr; }

  bool start_object(std::size_t) {
    stack_.push_back(Frame{put(Json::object()), nullptr});
    return true;
  }
  bool key(string_t& k) {
    Frame& f = stack_.back();
    Json::object_t& obj = f.value->get_ref<Json::object_t&>();
    if (!f.index && obj.size() >= kIndexFrom) {
      f.index = std::make_unique<std::unordered_map<std::string, size_t>>();
      for (size_t i = 0; i < obj.size(); ++i) f.index->emplace((obj.begin() + i)->first, i);
    }
    if (!f.index) {
      member_ = &obj[k];  // ordered_map: the existing member, or a new null one at the end
      return true;
    }
    auto [it, fresh] = f.index->emplace(k, obj.size());
    if (fresh) obj.emplace_back(std::move(k), nullptr);
    member_ = &(obj.begin() + it->second)->second;
    return true;
  }
  bool end_object() {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    stack_.push_back(Frame{put(Json::array()), nullptr});
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
    *member_ = std::move(v);
    return member_;
  }

  std::vector<Frame> stack_;
  Json* member_ = nullptr;
};

}  // namespace

Json parse_json(const std::string& text) {
  DomBuilder dom;
  Json::sax_parse(text, &dom);
  return std::move(dom.root);
}

}  // namespace fxw
}  // namespace fx
