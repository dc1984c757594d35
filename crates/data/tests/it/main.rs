//! The release data's integration tests, one test binary: each file is a module
//! (`cargo test -p explorer-data -- release_facts::` runs one).

mod release_data;
mod release_facts;
