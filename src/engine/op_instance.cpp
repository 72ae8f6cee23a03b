#include "engine/op_instance.h"

#include <ATen/ATen.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/csrc/autograd/autograd.h>

#include "core/error.h"
#include "ops/args.h"
#include "ops/input_detail.h"

namespace caliber {

struct OpInstance::State {
  const OpDef* op = nullptr;
  BuildContext context;
  Args args;
  at::Tensor pristine;  // in-place ops: the first input as built
  at::Tensor out;       // output of the untimed call (the forward output for backward ops)
  at::Tensor dout;
  std::vector<at::Tensor> leaves;
  std::function<void()> call;
  std::function<void()> reset;
  double bytes = 0;
  double flops = 0;
  std::string detail;
  std::vector<std::vector<int64_t>> shapes;

  // The op's result as verification sees it: the output, or the first gradient.
  at::Tensor result() {
    if (op->backward()) {
      return torch::autograd::grad({out}, leaves, {dout}, /*retain_graph=*/true,
                                   /*create_graph=*/false, /*allow_unused=*/true)[0]
          .detach();
    }
    if (reset) reset();
    at::Tensor r = op->call()(args);
    return r.defined() ? r.detach().clone() : r;
  }
};

namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

double nbytes(const at::Tensor& t) {
  return t.defined() ? static_cast<double>(t.numel()) * t.element_size() : 0.0;
}

std::string size_text(at::IntArrayRef sizes) {
  return fmt::format("torch.Size([{}])", fmt::join(sizes, ", "));
}

// Prepares `s` to run on `args`: in-place reset, the backward graph, the timed call.
void prepare(OpInstance::State& s, Args args, const at::Tensor* given_dout) {
  s.args = std::move(args);
  OpInstance::State* self = &s;
  if (s.op->inplace() && !s.args.t.empty()) {
    s.pristine = s.args.t[0].clone();
    // An in-place view op (unsqueeze_) changes the input's shape, not its values: restore the
    // shape before the values.
    s.reset = [self] {
      at::Tensor& t = self->args.t[0];
      if (t.sizes() != self->pristine.sizes()) t.resize_(self->pristine.sizes());
      t.copy_(self->pristine);
    };
  }
  if (s.op->backward()) {
    for (auto& t : s.args.t) {
      if (t.is_floating_point()) {
        t.requires_grad_(true);
        s.leaves.push_back(t);
      }
    }
    if (s.leaves.empty())
      throw Error(ErrorKind::kInternal, s.op->name() + ": nothing to differentiate");
    s.out = s.op->call()(s.args);
    s.dout = given_dout != nullptr ? given_dout->to(s.out.options()) : at::randn_like(s.out);
    s.call = [self] {
      torch::autograd::grad({self->out}, self->leaves, {self->dout}, /*retain_graph=*/true,
                            /*create_graph=*/false, /*allow_unused=*/true);
    };
    return;
  }
  s.call = [self] { self->op->call()(self->args); };
  s.out = s.op->call()(s.args);
  if (s.reset) s.reset();
}

Args to_reference(const Args& a) {
  Args r = a;
  auto widen = [](at::ScalarType type) {
    if (at::isComplexType(type)) return at::kComplexDouble;
    if (at::isFloatingType(type)) return at::kDouble;
    return type;
  };
  r.options = a.options.device(at::kCPU).dtype(widen(at::typeMetaToScalarType(a.options.dtype())));
  for (auto& t : r.t) t = t.detach().to(at::kCPU, widen(t.scalar_type())).clone();
  return r;
}

struct Tolerance {
  double rtol;
  double atol;
};

Tolerance tolerance_for(at::ScalarType type, double scale) {
  switch (type) {
    case at::kHalf:
      return {1e-2 * scale, 1e-2 * scale};
    case at::kBFloat16:
      return {4e-2 * scale, 4e-2 * scale};
    case at::kFloat8_e4m3fn:
      return {1.25e-1 * scale, 1.25e-1 * scale};
    case at::kFloat8_e5m2:
      return {2.5e-1 * scale, 2.5e-1 * scale};
    case at::kDouble:
    case at::kComplexDouble:
      return {1e-9 * scale, 1e-9 * scale};
    default:
      return {1e-4 * scale, 1e-5 * scale};
  }
}

// cuDNN runs float32 convolutions in TF32 unless told otherwise (torch's default), which keeps
// float16's 10 mantissa bits: compare such outputs at float16's tolerance, not float32's (a
// float32 tolerance failed conv3d on the device: docs/results.md).
bool runs_in_tf32(const OpDef& op, const at::Tensor& got) {
  return op.family() == Family::kConv && got.is_cuda() && got.scalar_type() == at::kFloat &&
         at::globalContext().allowTF32CuDNN();
}

Verification compare(const at::Tensor& got_any, const at::Tensor& ref_any, double scale,
                     bool tf32) {
  Verification v;
  v.has_reference = true;
  at::Tensor got = got_any.cpu();
  at::Tensor ref = ref_any.cpu();
  if (got.sizes() != ref.sizes()) {
    v.detail = fmt::format("shape {} differs from the reference's {}", size_text(got.sizes()),
                           size_text(ref.sizes()));
    return v;
  }
  if (!got.is_floating_point() && !got.is_complex()) {
    v.ok = at::equal(got.to(at::kLong), ref.to(at::kLong));
    if (!v.ok) {
      int64_t bad = at::ne(got.to(at::kLong), ref.to(at::kLong)).sum().item<int64_t>();
      v.detail = fmt::format("{} of {} elements differ from the reference", bad, got.numel());
    }
    return v;
  }
  Tolerance tol = tolerance_for(tf32 ? at::kHalf : got.scalar_type(), scale);
  at::Tensor g =
      got.is_complex() ? at::view_as_real(got.to(at::kComplexDouble)) : got.to(at::kDouble);
  at::Tensor r =
      ref.is_complex() ? at::view_as_real(ref.to(at::kComplexDouble)) : ref.to(at::kDouble);
  v.ok = at::allclose(g, r, tol.rtol, tol.atol, /*equal_nan=*/true);
  at::Tensor diff = at::abs(g - r).nan_to_num(0.0, 0.0, 0.0);
  double max_diff = diff.numel() > 0 ? diff.max().item<double>() : 0.0;
  v.detail =
      fmt::format("max |diff| {:.3g} (rtol {:.3g}, atol {:.3g})", max_diff, tol.rtol, tol.atol);
  if (!v.ok) {
    at::Tensor bad = at::logical_not(at::isclose(g, r, tol.rtol, tol.atol, true));
    v.detail += fmt::format(", {} of {} elements outside", bad.sum().item<int64_t>(), g.numel());
  }
  return v;
}

}  // namespace

OpInstance::OpInstance(std::unique_ptr<State> state) : state_(std::move(state)) {}
OpInstance::OpInstance(OpInstance&&) noexcept = default;
OpInstance& OpInstance::operator=(OpInstance&&) noexcept = default;
OpInstance::~OpInstance() = default;

const OpDef& OpInstance::op() const { return *state_->op; }
const std::function<void()>& OpInstance::call() const { return state_->call; }
const std::function<void()>& OpInstance::reset() const { return state_->reset; }
double OpInstance::bytes() const { return state_->bytes; }
double OpInstance::flops() const { return state_->flops; }
const std::string& OpInstance::size_detail() const { return state_->detail; }
const std::vector<std::vector<int64_t>>& OpInstance::input_shapes() const { return state_->shapes; }

Verification OpInstance::verify() const {
  State& s = *state_;
  try {
    if (s.op->check()) {
      Verification v;
      at::Tensor got = s.result();
      v.detail = s.op->check()(s.args, got);
      v.ok = v.detail.empty();
      return v;
    }
    if (s.reset) s.reset();
    Args reference_args = to_reference(s.args);
    at::Tensor got = s.result();
    State ref;
    ref.op = s.op;
    ref.context = s.context;
    at::Tensor dout_cpu = s.dout.defined() ? s.dout.cpu() : at::Tensor();
    prepare(ref, std::move(reference_args), s.dout.defined() ? &dout_cpu : nullptr);
    at::Tensor expected = ref.result();
    if (s.reset) s.reset();
    return compare(got, expected, s.op->tolerance(), runs_in_tf32(*s.op, got));
  } catch (const c10::Error& e) {
    return {false, true, first_line(e.what())};
  }
}

Args& OpInstance::args() const { return state_->args; }

Verification OpInstance::compare_with(const std::function<at::Tensor()>& other) const {
  State& s = *state_;
  if (s.op->backward()) {
    return {false, true, s.op->name() + ": a backward op is not compared with another call"};
  }
  try {
    if (s.reset) s.reset();
    // Both calls may write their inputs (in-place ops, out= buffers, flag_gems'
    // fused_add_rms_norm): each starts from the inputs as they are now, and leaves them so.
    std::vector<at::Tensor> saved;
    for (const auto& t : s.args.t) saved.push_back(t.defined() ? t.clone() : t);
    auto restore = [&] {
      for (std::size_t k = 0; k < saved.size(); ++k) {
        if (saved[k].defined()) s.args.t[k].copy_(saved[k]);
      }
    };
    at::Tensor own = s.op->call()(s.args);
    std::optional<std::size_t> written;
    for (std::size_t k = 0; own.defined() && k < s.args.t.size(); ++k) {
      if (own.is_same(s.args.t[k])) written = k;
    }
    at::Tensor expected = own.detach().clone();
    restore();
    at::Tensor got = other();
    if (!got.defined() && written) got = s.args.t[*written];
    if (!got.defined()) return {false, true, "the call returned no tensor"};
    got = got.detach().clone();
    restore();
    return compare(got, expected, s.op->tolerance(), runs_in_tf32(*s.op, got));
  } catch (const c10::Error& e) {
    return {false, true, first_line(e.what())};
  }
}

OpInstance instantiate(const OpDef& op, const ShapeCase& shape, DType dtype,
                       const InstanceOptions& options) {
  if (!op.inputs() || !op.call()) {
    throw Error(ErrorKind::kInternal, op.name() + ": op definition has no inputs or no call");
  }
  auto state = std::make_unique<OpInstance::State>();
  state->op = &op;
  BuildContext& ctx = state->context;
  ctx.op = op.name();
  ctx.shape_case = shape;
  ctx.dtype = dtype;
  ctx.state_dir = options.state_dir;
  try {
    ctx.device = c10::Device(options.device);
    Args args;
    args.options = ctx.options();
    args.state_dir = ctx.state_dir;
    op.inputs()(ctx, args);
    for (const auto& t : args.t) {
      state->shapes.push_back(std::vector<int64_t>(t.sizes().begin(), t.sizes().end()));
    }
    state->detail = size_detail_of(op, args).to_string();
    prepare(*state, std::move(args), nullptr);
    const Args& a = state->args;
    if (op.bytes()) {
      state->bytes = op.bytes()(a, state->out);
    } else {
      for (const auto& t : a.t) state->bytes += nbytes(t);
      state->bytes += nbytes(state->out);
      if (op.backward()) {  // the gradients written, one per differentiated input
        for (const auto& t : state->leaves) state->bytes += nbytes(t);
      }
    }
    if (op.flops()) state->flops = op.flops()(a, state->out);
  } catch (const c10::Error& e) {
    throw Error(ErrorKind::kOpFailure, fmt::format("{} {} {}: {}", op.name(), dtype_name(dtype),
                                                   shape.label(), first_line(e.what())));
  }
  return OpInstance(std::move(state));
}

}  // namespace caliber
