//! The users resource and where users are kept.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use restlight::prelude::*;
use serde::{Deserialize, Serialize};

/// A stored user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    pub id: u64,
    pub name: String,
}

/// The body of `POST /users`: the id is assigned by the repository.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct NewUser {
    pub name: String,
}

/// Where users are kept. Handlers see it as a bean, so a database-backed
/// implementation replaces the in-memory one without touching them.
pub trait UserRepository: Send + Sync {
    /// Up to `limit` users, by id.
    fn list(&self, limit: usize) -> Vec<User>;
    fn get(&self, id: u64) -> Option<User>;
    /// Stores a new user under the next free id.
    fn create(&self, new: NewUser) -> User;
    /// Whether a user was removed.
    fn delete(&self, id: u64) -> bool;
}

/// The repository handlers ask for with `#[context]`.
pub type Users = Arc<dyn UserRepository>;

/// Users in memory: lost on restart, and not shared between replicas.
#[derive(Debug, Default)]
pub struct InMemoryUserRepository {
    users: Mutex<BTreeMap<u64, User>>,
}

impl UserRepository for InMemoryUserRepository {
    fn list(&self, limit: usize) -> Vec<User> {
        self.users
            .lock()
            .unwrap()
            .values()
            .take(limit)
            .cloned()
            .collect()
    }

    fn get(&self, id: u64) -> Option<User> {
        self.users.lock().unwrap().get(&id).cloned()
    }

    fn create(&self, new: NewUser) -> User {
        let mut users = self.users.lock().unwrap();
        let id = users.keys().next_back().map_or(1, |last| last + 1);
        let user = User { id, name: new.name };
        users.insert(id, user.clone());
        user
    }

    fn delete(&self, id: u64) -> bool {
        self.users.lock().unwrap().remove(&id).is_some()
    }
}

{{users_resource}}
