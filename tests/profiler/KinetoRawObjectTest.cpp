#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "profiler/formats/detail/KinetoJsonReader.hpp"

namespace trainscope::profiler {
namespace {

using detail::KinetoRawObject;

// Built by appending: GCC 12's -Wrestrict misfires on "k" + std::to_string(i).
std::string name_of(int i) {
    std::string name(1, 'k');
    name.append(std::to_string(i));
    return name;
}

// A long event: its fields outgrow the object's first buffer several times.
KinetoRawObject long_event(int fields) {
    KinetoRawObject event;
    for (int i = 0; i < fields; ++i)
        event.add("args", name_of(i), std::string(40, static_cast<char>('a' + i % 26)), i % 2 == 0);
    return event;
}

void expect_long_event(const KinetoRawObject& event, int fields) {
    ASSERT_EQ(event.size(), static_cast<std::size_t>(fields));
    for (int i = 0; i < fields; ++i) {
        EXPECT_EQ(event[i].key, "args." + name_of(i));
        EXPECT_EQ(event[i].text, std::string(40, static_cast<char>('a' + i % 26)));
        EXPECT_EQ(event[i].is_string, i % 2 == 0);
    }
}

TEST(KinetoRawObject, FieldsStayReadableWhenTheBufferGrows) {
    expect_long_event(long_event(500), 500);
}

TEST(KinetoRawObject, KeysJoinPrefixAndName) {
    KinetoRawObject event;
    event.add("", "ph", "X", true);
    event.add("args.grid[0]", "", "7", false);
    event.add("args", "External id", "12", false);
    event.add("", "", "", false);
    ASSERT_EQ(event.size(), 4U);
    EXPECT_EQ(event[0].key, "ph");
    EXPECT_EQ(event[1].key, "args.grid[0]");
    EXPECT_EQ(event.text("args.External id"), "12");
    EXPECT_EQ(event[3].key, "");
    EXPECT_EQ(event.find("args"), nullptr);
    EXPECT_EQ(event.text("absent"), "");
}

TEST(KinetoRawObject, CopiesMovesAndSwapsKeepTheirOwnFields) {
    KinetoRawObject a = long_event(300);
    KinetoRawObject copy = a;
    a.clear();
    a.add("", "ph", "X", true);  // written over the original's bytes
    expect_long_event(copy, 300);

    KinetoRawObject moved = std::move(copy);
    expect_long_event(moved, 300);
    // NOLINTNEXTLINE(bugprone-use-after-move): left empty, and usable again
    EXPECT_EQ(copy.size(), 0U);
    copy.add("", "ph", "X", true);
    EXPECT_EQ(copy.text("ph"), "X");

    std::swap(moved, a);
    expect_long_event(a, 300);
    ASSERT_EQ(moved.size(), 1U);
    EXPECT_EQ(moved[0].key, "ph");

    a = moved;  // copied over a larger object
    ASSERT_EQ(a.size(), 1U);
    EXPECT_EQ(a.text("ph"), "X");
}

TEST(KinetoRawObject, ARefilledObjectHoldsOnlyItsNewFields) {
    KinetoRawObject event = long_event(100);
    event.clear();
    event.add("", "name", "conv", true);
    ASSERT_EQ(event.size(), 1U);
    EXPECT_EQ(event.text("name"), "conv");
    EXPECT_EQ(event.find("args.k0"), nullptr);
}

}  // namespace
}  // namespace trainscope::profiler
