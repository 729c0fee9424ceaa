#define HOTSIM_VERSION "0.1 (git 1370f68-dirty)"
