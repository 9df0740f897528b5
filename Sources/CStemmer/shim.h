#pragma once
#include <libstemmer.h>
