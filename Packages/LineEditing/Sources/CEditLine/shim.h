#include <stdio.h>
#include <stdlib.h>
#include <editline/readline.h>
