#include "harness/executor/Subprocess.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <utility>

#include "TempDir.hpp"

namespace trainscope::harness {
namespace {

bool is_open(int fd) {
    return fcntl(fd, F_GETFD) != -1;
}

TEST(OwnedFd, ClosesOnceWithItsLastOwner) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const int read_end = fds[0];
    {
        OwnedFd first(read_end);
        OwnedFd second = std::move(first);
        EXPECT_EQ(first.get(), -1);
        first = OwnedFd();  // the moved-from owner has nothing left to close
        EXPECT_TRUE(is_open(read_end));
        OwnedFd third;
        third = std::move(second);
        EXPECT_EQ(third.get(), read_end);
        EXPECT_TRUE(is_open(read_end));
    }
    EXPECT_FALSE(is_open(read_end));
    OwnedFd write_end(fds[1]);
    write_end.reset();
    EXPECT_FALSE(is_open(fds[1]));
    EXPECT_EQ(write_end.get(), -1);
}

// The child reads its stdin to the end: closing to_child is what lets it finish, and
// both descriptors close with the PipedProcess.
TEST(SpawnPiped, ClosingToChildEndsTheChildsInputAndTheDescriptorsCloseWithIt) {
    testing::TempDir dir;
    int to_child = -1;
    int from_child = -1;
    {
        PipedProcess cat = spawn_piped({"cat"}, dir / "stderr.txt");
        to_child = cat.to_child.get();
        from_child = cat.from_child.get();
        ASSERT_EQ(write(to_child, "hello\n", 6), 6);
        cat.to_child.reset();
        std::string out;
        char buffer[64];
        for (ssize_t n; (n = read(from_child, buffer, sizeof buffer)) > 0;)
            out.append(buffer, static_cast<std::size_t>(n));
        EXPECT_EQ(out, "hello\n");
        EXPECT_EQ(wait_for_exit(cat.pid), 0);
        EXPECT_TRUE(is_open(from_child));
    }
    EXPECT_FALSE(is_open(from_child));
}

}  // namespace
}  // namespace trainscope::harness
