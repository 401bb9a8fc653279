# Sourced by tools/fetch-source.sh and tools/install-deps.sh: apt-get and
# apt-cache with a private sources list and state folder, so that the
# system's apt configuration and package lists are never touched.
#
#   apt_private DIR "SOURCES_LIST"      sets APT_OPTS; DIR holds the state
#   apt-get $APT_OPTS update; apt-cache $APT_OPTS showsrc NAME; ...
#
# Release files are not checked for their dates: what is fetched through
# them is trusted by a checksum or used only to name packages, and an
# expired Release file of a mirror is fine for that.
apt_private() {
    rm -rf "$1"
    mkdir -p "$1/lists/partial" "$1/cache/archives/partial"
    _apt_dir=$(cd "$1" && pwd)
    printf '%s\n' "$2" > "$_apt_dir/sources.list"
    APT_OPTS="-o Dir::Etc::SourceList=$_apt_dir/sources.list -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists=$_apt_dir/lists -o Dir::Cache=$_apt_dir/cache \
        -o Dir::State::status=/dev/null -o APT::Sandbox::User=$(id -un) -qq \
        -o Acquire::Check-Valid-Until=false -o Acquire::Check-Date=false"
}
