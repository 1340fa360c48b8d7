// Node::format_node, as torch.fx.Node.format_node prints a node (the lines of str(graph) and the text FX puts
// in its error messages). It has its own formatting, distinct from repr(): _format_arg shows nodes as %name,
// strings and dict keys bare, torch.Size as the tuple it is, devices as str(device).
#include <string>

#include "ir/naming.h"
#include "ir/node.h"

namespace fx {
namespace {

// Python's str() of a value: bare text for str, "cuda:0" for a device, repr() for the rest.
std::string python_str(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Str: return v.as_str();
    case ValueKind::Device: return v.as_str();
    default: return v.repr();
  }
}

// torch.fx.node._format_arg (max_list_len = inf).
std::string format_arg(const Value& v) {
  switch (v.kind()) {
    case ValueKind::List:
    case ValueKind::Tuple:
    case ValueKind::Size: {  // torch.Size is a tuple subclass
      std::string items;
      const ValueList& list = v.items();
      for (size_t i = 0; i < list.size(); ++i) {
        if (i) items += ", ";
        items += format_arg(list[i]);
      }
      if (v.kind() == ValueKind::List) return "[" + items + "]";
      return "(" + items + (list.size() == 1 ? ",)" : ")");
    }
    case ValueKind::Dict: {
      std::string items;
      const Kwargs& dict = v.dict_items();
      for (size_t i = 0; i < dict.size(); ++i) {
        if (i) items += ", ";
        items += dict[i].first + ": " + format_arg(dict[i].second);
      }
      return "{" + items + "}";
    }
    case ValueKind::NodeRef: return "%" + v.as_node()->name();
    default: return python_str(v);
  }
}

std::string format_args(const ValueList& args) { return format_arg(Value::tuple(args)); }
std::string format_kwargs(const Kwargs& kwargs) { return format_arg(Value::dict(kwargs)); }

// Node._pretty_print_target for a canonical target name: torch.ops operators print with their module
// ("torch.ops.aten.add.Tensor"), builtins as "builtins.getattr", everything else as the qualified name.
std::string pretty_print_target(Op op, const std::string& target) {
  if (op != Op::CallFunction) return target;
  if (is_op_overload_target(target) && target.rfind("torch.ops.", 0) != 0) return "torch.ops." + target;
  if (target.rfind("_operator.", 0) == 0) return target.substr(1);
  if (target.find('.') == std::string::npos) return "builtins." + target;
  return target;
}

}  // namespace

std::string Node::format_node() const {
  const std::string users = "[num_users=" + std::to_string(num_users()) + "]";
  const std::string type = type_expr_.empty() ? "" : type_expr_ + " ";
  switch (op_) {
    case Op::Placeholder: {
      const std::string default_val = args_.empty() ? "" : "(default=" + python_str(args_[0]) + ")";
      return "%" + name_ + " : " + type + users + " = placeholder[target=" + target_ + "]" + default_val;
    }
    case Op::GetAttr:
      return "%" + name_ + " : " + type + users + " = get_attr[target=" + target_ + "]";
    case Op::Output:
      return "return " + (args_.empty() ? std::string("None") : python_str(args_[0]));
    default:
      return "%" + name_ + " : " + type + users + " = " + op_name(op_) + "[target=" +
             pretty_print_target(op_, target_) + "](args = " + format_args(args_) +
             ", kwargs = " + format_kwargs(kwargs_) + ")";
  }
}

}  // namespace fx
