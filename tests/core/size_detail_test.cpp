#include "core/size_detail.h"

#include <gtest/gtest.h>

namespace caliber {
namespace {

TEST(SizeDetail, PositionalArgumentsPrintAsAPythonList) {
  SizeDetail d;
  d.arg(PyValue::size({4096, 4096})).arg(PyValue::of(0)).arg(PyValue::size({409}));
  EXPECT_EQ(d.to_string(), "[torch.Size([4096, 4096]), 0, torch.Size([409])]");
}

TEST(SizeDetail, KeywordsAlonePrintAsADictAndWithArgumentsAsATuple) {
  SizeDetail only_kwargs;
  only_kwargs.kwarg("x", PyValue::size({64, 64}))
      .kwarg("k", PyValue::of(5))
      .kwarg("dim", PyValue::of(-1));
  EXPECT_EQ(only_kwargs.to_string(), "{'x': torch.Size([64, 64]), 'k': 5, 'dim': -1}");
  SizeDetail both;
  both.arg(PyValue::size({2, 3}))
      .arg(PyValue::raw("torch.float16"))
      .kwarg("grad_input", PyValue::size({2, 3}))
      .kwarg("reduction", PyValue::str("mean"))
      .kwarg("divisor_override", PyValue::none())
      .kwarg("ceil_mode", PyValue::flag(false));
  EXPECT_EQ(both.to_string(),
            "([torch.Size([2, 3]), torch.float16], {'grad_input': torch.Size([2, 3]), "
            "'reduction': 'mean', 'divisor_override': None, 'ceil_mode': False})");
}

TEST(SizeDetail, AKeywordGivenTwiceKeepsItsPlaceAndTakesTheLaterValue) {
  SizeDetail d;
  d.kwarg("a", PyValue::of(1)).kwarg("b", PyValue::of(2)).kwarg("a", PyValue::of(3));
  EXPECT_EQ(d.to_string(), "{'a': 3, 'b': 2}");
}

TEST(SizeDetail, NestedListsAndAnEmptyDetail) {
  SizeDetail d;
  d.arg(PyValue::list({PyValue::size({2, 2}), PyValue::size({2, 2})})).arg(PyValue::ints({1, 2}));
  EXPECT_EQ(d.to_string(), "[[torch.Size([2, 2]), torch.Size([2, 2])], [1, 2]]");
  EXPECT_EQ(SizeDetail{}.to_string(), "[]");
  EXPECT_EQ(PyValue::size({}).repr(), "torch.Size([])");
}

TEST(PythonFloat, MatchesPythonsRepr) {
  EXPECT_EQ(python_float(1.0), "1.0");
  EXPECT_EQ(python_float(0.1), "0.1");
  EXPECT_EQ(python_float(-2.5), "-2.5");
  EXPECT_EQ(python_float(1e-5), "1e-05");
  EXPECT_EQ(python_float(0.0001), "0.0001");
  EXPECT_EQ(python_float(0.00012345), "0.00012345");
  EXPECT_EQ(python_float(1.5e-7), "1.5e-07");
  EXPECT_EQ(python_float(1e15), "1000000000000000.0");
  EXPECT_EQ(python_float(1e16), "1e+16");
  EXPECT_EQ(python_float(123.456), "123.456");
  EXPECT_EQ(python_float(0.0), "0.0");
  EXPECT_EQ(python_float(1.0 / 3.0), "0.3333333333333333");
}

TEST(PyValue, StringsQuoteAsPythonDoes) {
  EXPECT_EQ(PyValue::str("cuda").repr(), "'cuda'");
  EXPECT_EQ(PyValue::str("it's").repr(), "\"it's\"");
  EXPECT_EQ(PyValue::flag(true).repr(), "True");
}

}  // namespace
}  // namespace caliber
