#include "ops/schema_call.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "core/error.h"
#include "ops/input_detail.h"

namespace caliber::ops {
namespace {

std::pair<std::string, std::string> split_name(const std::string& qualified) {
  auto dot = qualified.find('.');
  if (dot == std::string::npos) return {qualified, ""};
  return {qualified.substr(0, dot), qualified.substr(dot + 1)};
}

// Where one schema argument's value comes from.
struct Slot {
  enum class Source {
    kFixed,
    kTensor,
    kTensorList,
    kFloat,
    kInt,
    kList,
    kIntAsList,
    kFirstDtype,
    kCaseDtype,
    kCaseDevice
  } source = Source::kFixed;
  size_t index = 0;
  size_t count = 0;  // kTensorList: how many tensors from `index`
  c10::IValue value;
  bool bool_scalar = false;  // a Scalar argument read from Args::i
};

struct Plan {
  c10::OperatorHandle op;
  std::vector<Slot> slots;
};

bool is_tensor(const c10::TypePtr& type) {
  if (type->kind() == c10::TypeKind::TensorType) return true;
  if (auto opt = type->cast<c10::OptionalType>()) {
    return opt->getElementType()->kind() == c10::TypeKind::TensorType;
  }
  return false;
}

c10::TypeKind element_kind(const c10::TypePtr& type) {
  if (auto opt = type->cast<c10::OptionalType>()) return opt->getElementType()->kind();
  return type->kind();
}

size_t required_tensors_after(const std::vector<c10::Argument>& arguments, size_t n) {
  return std::count_if(arguments.begin() + n + 1, arguments.end(), [](const c10::Argument& x) {
    return x.type()->kind() == c10::TypeKind::TensorType;
  });
}

bool is_tensor_list(const c10::TypePtr& type) {
  auto list = type->cast<c10::ListType>();
  return list && list->getElementType()->kind() == c10::TypeKind::TensorType;
}

bool is_int_list(const c10::TypePtr& type) {
  auto list = type->cast<c10::ListType>();
  if (auto opt = type->cast<c10::OptionalType>())
    list = opt->getElementType()->cast<c10::ListType>();
  if (!list) return false;
  auto k = list->getElementType()->kind();
  return k == c10::TypeKind::IntType || k == c10::TypeKind::SymIntType;
}

// Binds the schema to the counts of the first call's Args: they are the same for every call.
Plan make_plan(const std::string& qualified, const std::vector<ArgValue>& fixed, const Args& a) {
  auto [name, overload] = split_name(qualified);
  auto handle = c10::Dispatcher::singleton().findSchema({name, overload});
  if (!handle) throw Error(ErrorKind::kInternal, "no ATen operator " + qualified);
  Plan plan{*handle, {}};
  size_t tensors = 0, floats = 0, ints = 0, lists = 0;
  const auto& arguments = handle->schema().arguments();
  for (size_t n = 0; n < arguments.size(); ++n) {
    const auto& arg = arguments[n];
    Slot slot;
    auto given = std::find_if(fixed.begin(), fixed.end(),
                              [&](const ArgValue& v) { return v.name == arg.name(); });
    // The real type: a ScalarType is an int to the JIT (`type()`), a ScalarType here.
    const auto kind = element_kind(arg.real_type());
    if (given != fixed.end()) {
      slot.value = given->value;
    } else if (is_tensor_list(arg.type()) && tensors < a.t.size()) {
      // A Tensor[] takes the tensors the later Tensor arguments (out=) leave.
      size_t later = std::count_if(arguments.begin() + n + 1, arguments.end(),
                                   [](const c10::Argument& x) { return is_tensor(x.type()); });
      size_t take = a.t.size() - tensors > later ? a.t.size() - tensors - later : 0;
      slot = {Slot::Source::kTensorList, tensors, take, {}};
      tensors += take;
    } else if (is_tensor(arg.type()) && tensors < a.t.size() &&
               (arg.type()->kind() != c10::TypeKind::OptionalType ||
                a.t.size() - tensors > required_tensors_after(arguments, n))) {
      // An optional tensor (a weight) takes one only where the required ones after it (out=)
      // leave one.
      slot = {Slot::Source::kTensor, tensors++, 0, {}};
    } else if ((kind == c10::TypeKind::NumberType || kind == c10::TypeKind::FloatType) &&
               floats < a.f.size()) {
      slot = {Slot::Source::kFloat, floats++, 0, {}};
    } else if (kind == c10::TypeKind::NumberType && ints < a.i.size()) {
      slot = {Slot::Source::kInt, ints++, 0, {}, true};
    } else if ((kind == c10::TypeKind::IntType || kind == c10::TypeKind::SymIntType) &&
               ints < a.i.size()) {
      slot = {Slot::Source::kInt, ints++, 0, {}};
    } else if (is_int_list(arg.type()) && lists < a.lists.size()) {
      slot = {Slot::Source::kList, lists++, 0, {}};
    } else if (is_int_list(arg.type()) && ints < a.i.size()) {
      slot = {Slot::Source::kIntAsList, ints++, 0, {}};
    } else if (a.t.empty() && arg.name() == "dtype" && kind == c10::TypeKind::ScalarTypeType) {
      slot.source = Slot::Source::kCaseDtype;  // a creation op makes the case's dtype
    } else if (a.t.empty() && arg.name() == "device" && kind == c10::TypeKind::DeviceObjType) {
      slot.source = Slot::Source::kCaseDevice;  // ... on the case's device
    } else if (kind == c10::TypeKind::ScalarTypeType && !arg.default_value() &&
               arg.type()->kind() != c10::TypeKind::OptionalType && !a.t.empty()) {
      slot.source = Slot::Source::kFirstDtype;  // softmax backward's input_dtype
    } else if (arg.default_value()) {
      slot.value = *arg.default_value();
    } else if (arg.type()->kind() == c10::TypeKind::OptionalType) {
      slot.value = c10::IValue();
    } else {
      throw Error(ErrorKind::kInternal,
                  fmt::format("{}: no value for argument '{}'", qualified, arg.name()));
    }
    plan.slots.push_back(std::move(slot));
  }
  return plan;
}

at::Tensor first_tensor(const c10::IValue& v) {
  if (v.isTensor()) return v.toTensor();
  if (v.isTuple()) {
    for (const auto& e : v.toTupleRef().elements()) {
      if (e.isTensor()) return e.toTensor();
    }
  }
  if (v.isTensorList()) {
    auto list = v.toTensorList();
    if (!list.empty()) return list.get(0);
  }
  return {};
}

// A fixed value as Python prints it (None for what record_shapes() would not keep).
PyValue python_value(const c10::IValue& v) {
  if (v.isBool()) return PyValue::flag(v.toBool());
  if (v.isInt()) return PyValue::of(v.toInt());
  if (v.isDouble()) return PyValue::real_number(v.toDouble());
  if (v.isString()) return PyValue::str(v.toStringRef());
  if (v.isIntList()) return PyValue::ints(v.toIntVector());
  if (v.isBoolList()) {
    std::vector<PyValue> flags;
    for (bool b : v.toBoolList()) flags.push_back(PyValue::flag(b));
    return PyValue::list(std::move(flags));
  }
  if (v.isTensor()) return size_of(v.toTensor());
  return PyValue::none();
}

}  // namespace

SizeDetail aten_call_detail(const std::string& qualified, const std::vector<ArgValue>& fixed,
                            const Args& a) {
  const Plan plan = make_plan(qualified, fixed, a);
  const auto& arguments = plan.op.schema().arguments();
  SizeDetail d;
  for (size_t n = 0; n < arguments.size(); ++n) {
    const c10::Argument& arg = arguments[n];
    const Slot& s = plan.slots[n];
    std::optional<PyValue> v;
    switch (s.source) {
      case Slot::Source::kFixed: {
        const bool given = std::any_of(fixed.begin(), fixed.end(), [&](const ArgValue& f) {
          return f.name == arg.name() && f.yielded;
        });
        if (given) v = python_value(s.value);
        break;
      }
      case Slot::Source::kTensor:
        v = size_of(a.t[s.index]);
        break;
      case Slot::Source::kTensorList: {
        std::vector<PyValue> sizes;
        for (size_t k = 0; k < s.count; ++k) sizes.push_back(size_of(a.t[s.index + k]));
        v = PyValue::list(std::move(sizes));
        break;
      }
      case Slot::Source::kFloat:
        v = PyValue::real_number(a.f[s.index]);
        break;
      case Slot::Source::kInt:
      case Slot::Source::kIntAsList:
        v = PyValue::of(a.i[s.index]);
        break;
      case Slot::Source::kList:
        v = PyValue::ints(a.lists[s.index]);
        break;
      case Slot::Source::kFirstDtype:
        v = torch_dtype(a.t[0].scalar_type());
        break;
      case Slot::Source::kCaseDtype:
      case Slot::Source::kCaseDevice:
        break;
    }
    if (!v) continue;
    if (arg.kwarg_only()) {
      d.kwarg(arg.name(), std::move(*v));
    } else {
      d.arg(std::move(*v));
    }
  }
  return d;
}

CallFn aten_call(const std::string& qualified, std::vector<ArgValue> fixed) {
  auto plan = std::make_shared<std::optional<Plan>>();
  return [qualified, fixed = std::move(fixed), plan](Args& a) -> at::Tensor {
    if (!*plan) *plan = make_plan(qualified, fixed, a);
    const Plan& p = **plan;
    torch::jit::Stack stack;
    stack.reserve(p.slots.size());
    for (const Slot& s : p.slots) {
      switch (s.source) {
        case Slot::Source::kFixed:
          stack.push_back(s.value);
          break;
        case Slot::Source::kTensor:
          stack.emplace_back(a.t[s.index]);
          break;
        case Slot::Source::kTensorList:
          stack.emplace_back(
              std::vector<at::Tensor>(a.t.begin() + s.index, a.t.begin() + s.index + s.count));
          break;
        case Slot::Source::kFloat:
          stack.emplace_back(a.f[s.index]);
          break;
        case Slot::Source::kInt:
          // FlagGems passes True, not 1, as the scalar of a bool tensor's bitwise op.
          if (s.bool_scalar && !a.t.empty() && a.t[0].scalar_type() == at::kBool) {
            stack.emplace_back(a.i[s.index] != 0);
          } else {
            stack.emplace_back(a.i[s.index]);
          }
          break;
        case Slot::Source::kList:
          stack.emplace_back(a.lists[s.index]);
          break;
        case Slot::Source::kCaseDtype:
          stack.emplace_back(c10::typeMetaToScalarType(a.options.dtype()));
          break;
        case Slot::Source::kCaseDevice:
          stack.emplace_back(a.options.device());
          break;
        case Slot::Source::kFirstDtype:
          stack.emplace_back(a.t[0].scalar_type());
          break;
        case Slot::Source::kIntAsList:
          stack.emplace_back(std::vector<int64_t>{a.i[s.index]});
          break;
      }
    }
    p.op.callBoxed(stack);
    return stack.empty() ? at::Tensor() : first_tensor(stack[0]);
  };
}

}  // namespace caliber::ops
