#include "catch_session.h"

int main(int argc, char** argv) { return tessera::test::RunCatchSession(argc, argv); }
