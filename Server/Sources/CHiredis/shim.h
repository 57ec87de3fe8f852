// hiredis's synchronous API. Swift calls redisCommandArgv (redisCommand is variadic).
#include <hiredis/hiredis.h>
